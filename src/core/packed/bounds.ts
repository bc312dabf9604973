// The bounds of the packed link storage (issue 40: links off the JS heap). Each is a named number
// a hostile input meets; the tests in test/core/packed/ put each of them to the proof.

/**
 * Record numbers a store hands out: 2^23 = 8,388,608, above a seed's 5,000,000 links
 * (MAX_SEEDED_LINKS, fixtures/fixture-spec.ts) and the creates a run adds to them. Record numbers of
 * removed records are handed out again, so only the links alive at once count.
 */
export const MAX_RECORDS = 1 << 23;

/** Bytes of one record: a link's JSON text and its key. Past it `add`/`replace` throw. 64 MiB. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Bytes of one key (an id or a slug as UTF-8). A key of 0 bytes is a key like any other. */
export const MAX_KEY_BYTES = 4096;

/** The arena's segment: records are packed into Buffers of this size; a larger record gets its own. */
export const SEGMENT_BYTES = 4 * 1024 * 1024;

/**
 * Bytes one LinkArena.compactStep walks (and one slot past): 256 KiB, ~800 records of the seed's;
 * ~0.1 ms of CPU a step (median; 0.2 at p90: bench/packed-gc.mjs prints the longest).
 */
export const COMPACT_STEP_BYTES = 256 * 1024;
