#!/bin/sh
# npm test's runner: `npm run lint` (the contract linters and the type check: ~22 s of CPU, ~15 s
# of wall) runs beside the command given (vitest run), not before it. The suite's first half-minute
# leaves part of the two cores idle (workers starting, the e2e and Redis set-ups), and the lint
# fits there: before, every run waited for it. Its output is kept apart and printed after the
# command's, and npm test fails when either fails.
out=$(mktemp) || exit 1
npm run lint --silent >"$out" 2>&1 &
lint=$!
"$@"
tests=$?
wait "$lint"
linted=$?
cat "$out"
rm -f "$out"
if [ "$linted" -ne 0 ]; then
  echo "npm test: npm run lint failed (its output is above)" >&2
  exit "$linted"
fi
exit "$tests"
