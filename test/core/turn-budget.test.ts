// A slice of a replace's work ends by the wall clock (turn-budget.ts), not only by its count.
import { expect, it } from 'vitest';
import { TURN_MS, TurnBudget } from '../../src/core/turn-budget.js';

it(`pauses at the first look at the clock after ${TURN_MS} ms, the clock read every 64 units, and starts the next slice after the pause`, async () => {
  let clock = 0;
  let pauses = 0;
  const turn = new TurnBudget(async () => void (pauses += 1), () => clock);
  const paused: number[] = [];
  for (let unit = 1; unit <= 640; unit += 1) {
    clock += 0.1; // 0.1 ms a unit: TURN_MS after 40 units, seen at the 64th
    const pause = turn.tick();
    if (pause) {
      paused.push(unit);
      await pause;
    }
  }
  expect(paused).toEqual([64, 128, 192, 256, 320, 384, 448, 512, 576, 640]);
  expect(pauses).toBe(10);
  // A slow unit (a collector's step inside it) ends the slice at the next look.
  clock += 50;
  expect(turn.spent()).toBe(true);
  await turn.next();
  expect(turn.spent()).toBe(false);
});
