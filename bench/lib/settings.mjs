// The knobs of a bench run, from the environment, checked and bounded.
const number = (name, fallback, min, max) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}, got '${raw}'`);
  return value;
};

export function benchSettings() {
  const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map((size) => Number(size.trim()));
  if (!sizes.length || sizes.some((size) => !Number.isInteger(size) || size < 20 || size > 1_000_000)) throw new Error('BENCH_SIZES: whole numbers from 20 to 1000000, comma-separated');
  const workloads = (process.env.BENCH_WORKLOADS ?? 'create,mixed,scenario,read-heavy').split(',').map((name) => name.trim());
  return {
    durationSec: number('BENCH_DURATION', 8, 1, 120),
    rounds: number('BENCH_ROUNDS', 4, 1, 20),
    warmUpSec: number('BENCH_WARMUP', 2, 0, 60),
    sizes,
    workloads,
    peers: process.env.BENCH_PEERS === '1',
    ...(process.env.BENCH_PRISM_BIN ? { prismBin: process.env.BENCH_PRISM_BIN } : {}),
  };
}

export function soakSettings() {
  return {
    soakSec: number('BENCH_SOAK_SECONDS', 300, 10, 3600),
    warmUpSec: number('BENCH_SOAK_WARMUP', 30, 0, 600),
    sampleEverySec: 5,
    links: number('BENCH_SOAK_LINKS', 1000, 20, 1_000_000),
  };
}

/** npm run bench:start: runs, the prepared db's size, and another build to alternate with. */
export function startSettings() {
  return {
    runs: number('BENCH_START_RUNS', 15, 1, 100),
    links: number('BENCH_START_LINKS', 1000, 20, 1_000_000),
    ...(process.env.BENCH_START_OTHER ? { other: process.env.BENCH_START_OTHER } : {}),
  };
}
