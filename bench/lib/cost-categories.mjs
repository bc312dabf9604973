// Where a request's CPU goes, read from a V8 CPU profile: each sample is charged to the innermost
// frame on its stack that belongs to one of the categories below (so ajv called by the validator
// is validation, a socket write called by res.json is the HTTP stack), to GC, or to "other".
// Only samples inside [fromUs, toUs] (the measured window, on the monotonic clock the profile
// and process.hrtime share) count; the result is µs per request.

export const CATEGORIES = [
  ['response validation', /openapi\.response\.validator/],
  ['request validation', /express-openapi-validator|\/ajv\/|ajv-formats|\/fast-uri\/|dist\/src\/http\/validator|dist\/src\/core\/array-bounds/],
  ['journal, coverage, log line', /dist\/src\/http\/record-requests|dist\/src\/core\/(journal|coverage|violations|printable)/],
  ['body parsing', /body-parser|raw-body|iconv-lite|content-type\/|dist\/src\/http\/(json-body|json-depth|half-closed-body)/],
  ['scenarios, authentication, re-run', /dist\/src\/http\/(scenarios|authenticate|read-again|operation-table|request-target|faults)|dist\/src\/core\/scenario/],
  ['store (memory, change log, fsync)', /dist\/src\/store\/|node:internal\/fs|node:fs/],
  ['link rules', /dist\/src\/core\//],
  ['handlers, errors', /dist\/src\/http\/(operations|errors|one-layer)/],
  ['HTTP server, Express, router, CORS', /node_modules\/(express|router|cors|finalhandler|send|parseurl|on-finished|vary)\/|node:_http|node:net|node:internal\/(streams|stream_base|http)|dist\/src\/http\/server|baseline-server/],
];

const GC = '(garbage collector)';

/** { category → µs per request } and the busy total, from one profile. */
export function costPerRequest(profile, { fromUs, toUs, requests }) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const categoryOf = new Map();
  const categorize = (id) => {
    if (categoryOf.has(id)) return categoryOf.get(id);
    const { functionName, url } = nodes.get(id).callFrame;
    const own = functionName === GC ? 'GC' : CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0];
    const up = parent.get(id);
    const category = own ?? (up === undefined ? 'other (idle-time work, timers, native)' : categorize(up));
    categoryOf.set(id, category);
    return category;
  };
  const spent = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs || nodes.get(id).callFrame.functionName === '(idle)') return;
    const category = categorize(id);
    spent.set(category, (spent.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const perRequest = Object.fromEntries([...spent].map(([category, us]) => [category, us / requests]));
  return { perRequest, busy: [...spent.values()].reduce((a, b) => a + b, 0) / requests };
}
