// What the validating proxy (--proxy) adds to a journal row: the ways the exchange broke the
// contract ("side: rule", the exchange's own evidence as a tooltip and in the details) and what the
// upstream answered, or why it did not. A mock's own answers carry neither: nothing is added.
import { h } from './dom.js';

/** The entry's violations as a list for the Verdict cell; null when it has none. */
export function violationList(entry) {
  if (!entry.violations || entry.violations.length === 0) return null;
  return h(
    'ul',
    { className: 'violations', 'aria-label': 'Contract violations' },
    ...entry.violations.map((violation) => h('li', { title: violation.detail, dataset: { side: violation.side } }, `${violation.side}: ${violation.rule}`)),
  );
}

/** "upstream 500" or "upstream: refused" under the status; null when nothing was forwarded. */
export function upstreamNote(entry) {
  if (!entry.upstream) return null;
  const { status, error } = entry.upstream;
  return h('span', { className: 'muted block upstream' }, status === null ? `upstream: ${error ?? 'no answer'}` : `upstream ${status}`);
}

/** The details row's part: where the request went, how it went, and each violation's evidence. */
export function proxyDetails(entry) {
  const violations = entry.violations ?? [];
  if (!entry.upstream && violations.length === 0) return null;
  const upstream = entry.upstream;
  return h(
    'div',
    { className: 'proxied' },
    upstream
      ? h('p', {}, `Forwarded to ${upstream.url}: ${upstream.status === null ? `no answer (${upstream.error ?? 'unknown reason'})` : `answered ${upstream.status}`} in ${upstream.durationMs} ms.`)
      : h('p', {}, 'Answered by the mock (a scenario), not forwarded.'),
    violations.length === 0
      ? h('p', {}, 'Both sides kept the contract.')
      : h('ul', {}, ...violations.map((violation) => h('li', {}, `${violation.side}: ${violation.rule}`, violation.detail ? h('span', { className: 'muted block' }, violation.detail) : null))),
  );
}
