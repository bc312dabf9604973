// The JSON text of an answer's body, made once: the response validator's kept verdicts
// (validator-fixes/kept-response-verdicts.ts) serialise a GET answer to judge its bytes, and the
// app's res.json (json-answer.ts) sends that very text instead of serialising the body again. So
// the bytes judged are the bytes sent. Keyed by the body object, which res.json receives from the
// validator's hook in the same synchronous call; a body changed in between would be sent stale,
// so a path that may change it (variety) forgets the text first (forgetJsonText).
const texts = new WeakMap<object, string>();

/** Keeps `text` as the serialisation of `body` until it is sent. */
export function keepJsonText(body: object, text: string): void {
  texts.set(body, text);
}

/** The text kept for `body` (once: it is forgotten as it is taken), or undefined. */
export function takeJsonText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const text = texts.get(body);
  if (text !== undefined) texts.delete(body);
  return text;
}

/** Forgets the text kept for `body`: what is sent will be serialised again. */
export function forgetJsonText(body: unknown): void {
  if (typeof body === 'object' && body !== null) texts.delete(body);
}
