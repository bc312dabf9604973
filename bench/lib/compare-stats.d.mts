// Types of compare-stats.mjs, for the TypeScript tests that table-test it.
export interface RoundPair {
  ref: number;
  candidate: number;
}
export interface RatioInterval {
  median: number;
  geometricMean: number;
  low: number;
  high: number;
}
export function t95(degreesOfFreedom: number): number;
export function median(values: readonly number[]): number;
export function ratioInterval(pairs: readonly RoundPair[]): RatioInterval;
export function verdict(interval: RatioInterval, options?: { threshold?: number; minEffect?: number }): { word: 'faster' | 'slower' | 'no difference found'; failsGate: boolean };
