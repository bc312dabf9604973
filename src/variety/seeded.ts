// Reproducible choices from a seed: mulberry32, a small generator that is the same on every
// platform and in every Node version (Math.random is neither seedable nor reproducible).
/** An integer in [0, max). */
export type Draw = (max: number) => number;

export function seededDraw(seed: number, ...salt: readonly string[]): Draw {
  // Seeds up to 2^53: both halves count.
  let state = ((seed % 4294967296) ^ Math.floor(seed / 4294967296) ^ hash(salt.join('\u0000'))) >>> 0;
  return (max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(unit * max);
  };
}

/** FNV-1a of a text: the salt of a draw, so that each field's choice is its own. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
