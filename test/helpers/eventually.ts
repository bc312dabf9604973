// Bounded polling of a condition that another process makes true by itself (a journal entry
// recorded just after its answer, a mock reconnecting to Redis): checks now, then every 25 ms,
// until it holds or the bound passes, and gives the last value so the caller's assertion says what
// was seen. Never a sleep standing in for a condition.
const POLL_MS = 25;

export async function eventually<T>(check: () => Promise<T>, holds: (value: T) => boolean, limitMs: number): Promise<T> {
  const end = Date.now() + limitMs;
  let value = await check();
  while (!holds(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    value = await check();
  }
  return value;
}
