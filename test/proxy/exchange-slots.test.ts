// The proxy's exchange slots (src/proxy/exchange-slots.ts, --proxy-concurrency), on their own: never
// more exchanges at once than the limit, a freed slot handed to the first in line (the count
// unchanged), a full queue refused at once, a wait that runs out or is given up refused with why.
// No timers are waited on: "still waiting" is a promise not settled once the microtasks have run.
import { setMaxListeners } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { ExchangeSlots, MAX_WAITING_PER_SLOT, type Release } from '../../src/proxy/exchange-slots.js';

type Outcome = Release | { refused: string };

const LONG_WAIT_MS = 60_000;
// Whatever still waits when a test ends gives up then: no timer of a minute is left behind.
let everyWaiter = new AbortController();
let never = everyWaiter.signal;
afterEach(() => {
  everyWaiter.abort();
  everyWaiter = new AbortController();
  never = everyWaiter.signal;
});

/** The outcome if the promise has settled by now, else 'waiting'. */
async function settled(outcome: Promise<Outcome>): Promise<Outcome | 'waiting'> {
  // A settled promise wins the race: it is listed first and its reaction is queued first.
  return Promise.race([outcome, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

async function granted(outcome: Promise<Outcome> | Outcome): Promise<Release> {
  const slot = await outcome;
  if (typeof slot !== 'function') throw new Error(`expected a slot, got refused: ${slot.refused}`);
  return slot;
}

it.each([1, 2, 3])('lets exactly %i exchanges through at once, and the next one only when a slot is given back', async (limit) => {
  const slots = new ExchangeSlots(limit);
  expect(slots.full).toBe(false);
  const held = await Promise.all(Array.from({ length: limit }, () => granted(slots.acquire(LONG_WAIT_MS, never))));
  // What the proxy reads to know whether a request queued (proxy-answer.ts).
  expect(slots.full).toBe(true);
  const next = slots.acquire(LONG_WAIT_MS, never);
  expect(await settled(next)).toBe('waiting');
  held[0]?.();
  const handedOver = await granted(next);
  // Handed over, not added: the count is still the limit, so one more still waits.
  const after = slots.acquire(LONG_WAIT_MS, never);
  expect(await settled(after)).toBe('waiting');
  handedOver();
  (await granted(after))();
  for (const release of held.slice(1)) release();
  // Every slot back: the limit goes through at once again, and no more.
  const again = await Promise.all(Array.from({ length: limit }, () => settled(slots.acquire(LONG_WAIT_MS, never))));
  expect(again.every((slot) => typeof slot === 'function')).toBe(true);
  expect(await settled(slots.acquire(LONG_WAIT_MS, never))).toBe('waiting');
});

it('gives a slot back once only: a second release() frees nothing more', async () => {
  const slots = new ExchangeSlots(1);
  const first = await granted(slots.acquire(LONG_WAIT_MS, never));
  const second = slots.acquire(LONG_WAIT_MS, never);
  const third = slots.acquire(LONG_WAIT_MS, never);
  first();
  first();
  expect(typeof (await settled(second))).toBe('function');
  expect(await settled(third)).toBe('waiting');
});

it('serves the waiting first come, first served', async () => {
  const slots = new ExchangeSlots(1);
  const held = await granted(slots.acquire(LONG_WAIT_MS, never));
  const order: string[] = [];
  const a = slots.acquire(LONG_WAIT_MS, never).then((slot) => (order.push('a'), slot));
  const b = slots.acquire(LONG_WAIT_MS, never).then((slot) => (order.push('b'), slot));
  held();
  (await granted(a))();
  (await granted(b))();
  expect(order).toEqual(['a', 'b']);
});

it(`refuses at once past ${MAX_WAITING_PER_SLOT} waiting per slot`, async () => {
  const slots = new ExchangeSlots(2);
  const cancel = new AbortController();
  setMaxListeners(slots.maxWaiting, cancel.signal);
  await Promise.all([granted(slots.acquire(LONG_WAIT_MS, never)), granted(slots.acquire(LONG_WAIT_MS, never))]);
  const queued = Array.from({ length: slots.maxWaiting }, () => slots.acquire(LONG_WAIT_MS, cancel.signal));
  expect(await settled(slots.acquire(LONG_WAIT_MS, never))).toEqual({ refused: expect.stringMatching(/^2 exchanges .* \(--proxy-concurrency 2\) and 32 more wait their turn: this one is refused rather than queued$/) });
  // Each one that gives up leaves the queue (no timer left behind either).
  cancel.abort();
  for (const outcome of await Promise.all(queued)) expect(outcome).toEqual({ refused: 'the client gave up while waiting its turn' });
  expect(await settled(slots.acquire(LONG_WAIT_MS, never))).toBe('waiting');
});

it('refuses a wait that outlasts its time, naming --proxy-timeout', async () => {
  const slots = new ExchangeSlots(1);
  await granted(slots.acquire(LONG_WAIT_MS, never));
  expect(await slots.acquire(1, never)).toEqual({ refused: expect.stringMatching(/^no slot freed within 1 ms \(--proxy-timeout\): 1 exchanges with the upstream are in flight/) });
});
