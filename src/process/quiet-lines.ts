// What --quiet keeps of the log: no line per request, but every line about something going wrong
// (docs/options.md: "errors, contract violations and upstream failures are still logged"): a
// contract violation, an internal error, an upstream that failed, and a proxy client too slow to
// take its answer (docs/proxy.md: "even with --quiet"; a bounds sweep found it dropped).
const KEPT = /^(CONTRACT|INTERNAL|UPSTREAM|CLIENT TOO SLOW)/;

export function keptWhenQuiet(line: string): boolean {
  return KEPT.test(line);
}
