// Values at the edges the contract allows: other RFC 3339 forms of one instant, non-ASCII text,
// the longest string. Never a control character, line separator, bidirectional control or lone
// surrogate (D30's plain text): a client may fairly refuse those, the contract's strings exclude them.
import type { Draw } from './seeded.js';

/** Accents, CJK, emoji (outside the BMP), right-to-left letters (no bidirectional controls). */
export const NON_ASCII_SAMPLES: readonly string[] = ['Café crème brûlée', '東京の短いリンク', 'Launch 🚀🎉 déjà vu', 'שלום עולם', 'مرحبا بالعالم', 'Ünïcödé — “quoted” ½'];

/** A string without a maxLength gets this many characters at its longest: a bound of the mock's own. */
export const LONGEST_WITHOUT_MAX = 4096;

const FILLER = 'The quick brown fox jumps over the lazy dog; à la carte, naïve façade. ';

/** `start` filled up to exactly `length` code points (Ajv counts code points, as JSON Schema does). */
export function longest(start: string, length: number): string {
  const points = [...start];
  while (points.length < length) points.push(...FILLER);
  return points.slice(0, length).join('');
}

/** Offsets a real server may answer in, whole and half hours, east and west. */
const OFFSETS_MINUTES: readonly number[] = [60, -420, 330, 765, -210, 540];

/** The same instant with a numeric offset instead of Z: 2026-11-22T09:15:04.512Z → 2026-11-22T14:45:04.512+05:30. */
export function withOffset(iso: string, draw: Draw): string {
  const parsed = splitInstant(iso);
  if (!parsed) return iso;
  const offset = OFFSETS_MINUTES[draw(OFFSETS_MINUTES.length)] ?? 60;
  const local = new Date(parsed.ms + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${parsed.fraction}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The same instant with another number of fraction digits, 0 to 9: as few as keep the instant
 * (`.500` may be `.5`, `.000` may be none) up to nine (`.512000000`).
 */
export function withFractionDigits(iso: string, draw: Draw): string {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(iso);
  if (!match) return iso;
  const significant = (match[2] ?? '').replace(/0+$/, '');
  const choices = [];
  for (let digits = significant.length; digits <= 9; digits += 1) if (digits !== (match[2] ?? '').length) choices.push(digits);
  const digits = choices[draw(choices.length)] ?? 9;
  const fraction = digits === 0 ? '' : `.${significant.padEnd(digits, '0')}`;
  return `${match[1]}${fraction}${match[3]}`;
}

function splitInstant(iso: string): { ms: number; fraction: string } | undefined {
  const ms = Date.parse(iso);
  const match = /T\d\d:\d\d:\d\d(\.\d+)?/.exec(iso);
  return Number.isNaN(ms) || !match ? undefined : { ms: Math.floor(ms / 1000) * 1000, fraction: match[1] ?? '' };
}

const pad = (value: number): string => String(value).padStart(2, '0');
