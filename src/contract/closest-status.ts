// Which documented answer of an operation an answer is judged by. OpenAPI documents a status
// exactly ('201'), by its class ('4XX') or by 'default', in that order of precedence. A status none
// of them covers is a violation of its own, but its body is still judged, against the closest
// documented answer of the same class, so that an upstream answering 200 instead of 201 shows its
// body's problems at once rather than only after the status is fixed (issue 25). The rule:
//   - the documented statuses of the same class (2xx for a 200), the nearest by number; between two
//     equally near, the lower (a 202 between 200 and 204 is judged as 200);
//   - no documented status of that class (a 500 where only 4xx errors are documented): the body is
//     not judged, there being nothing of its kind to judge it by; the status alone is reported.

/** What a status is judged by: its documented answer, or the closest one when it is not documented. */
export type Judged<T> = { documented: T } | { undocumented: true; closest?: { status: number; answer: T } };

export class DocumentedAnswers<T> {
  private readonly exact = new Map<number, T>();
  private readonly ranges = new Map<number, T>();
  private fallback: T | undefined;

  /** Takes a key of an OpenAPI responses object: '201', '4XX' or 'default'; anything else is ignored. */
  add(key: string, answer: T): void {
    if (/^[1-5]\d\d$/.test(key)) this.exact.set(Number(key), answer);
    else if (/^[1-5]XX$/i.test(key)) this.ranges.set(Number(key[0]), answer);
    else if (key === 'default') this.fallback = answer;
  }

  /** The statuses documented one by one, ascending. */
  statuses(): number[] {
    return [...this.exact.keys()].sort((a, b) => a - b);
  }

  /** The answer documented for exactly this status, if any (not a range's nor the default). */
  exactly(status: number): T | undefined {
    return this.exact.get(status);
  }

  judge(status: number): Judged<T> {
    const documented = this.exact.get(status) ?? this.ranges.get(Math.floor(status / 100)) ?? this.fallback;
    if (documented !== undefined) return { documented };
    const closest = this.closest(status);
    return closest === undefined ? { undocumented: true } : { undocumented: true, closest: { status: closest, answer: this.exact.get(closest) as T } };
  }

  /** The nearest documented status of the same class; the lower of two equally near. */
  private closest(status: number): number | undefined {
    let best: number | undefined;
    for (const candidate of this.statuses()) {
      if (Math.floor(candidate / 100) !== Math.floor(status / 100)) continue;
      if (best === undefined || Math.abs(candidate - status) < Math.abs(best - status)) best = candidate;
    }
    return best;
  }
}
