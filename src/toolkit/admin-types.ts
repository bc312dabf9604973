// The admin API's answers as TypeScript types, following the schemas of src/admin/openapi.yaml
// (test/toolkit/admin-types.test.ts checks that each names exactly its schema's properties). The
// journal, coverage, violation and snapshot shapes are the core's own types, which those routes send as they are.
import type { Domain } from '../core/api-types.js';
import type { Outcome, KeyCoverage } from '../core/coverage.js';

export type { JournalEntry, JournalFilter, UpstreamOutcome, Violation } from '../core/journal.js';
export type { KeyCoverage, Outcome } from '../core/coverage.js';
/** `GET /__admin/violations` (the drift report) and its parts. */
export type { DistinctViolation, ViolationExample, ViolationGroup, ViolationReport, ViolationSide } from '../core/violations.js';
export type { SnapshotInfo as Snapshot } from '../core/snapshots.js';
/** `PUT /__admin/variety` and `GET /__admin/variety`. */
export type { VarietyOverview, VarietySetting } from '../variety/switch.js';

/** `GET /__admin/health`. */
export interface Health {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
  accounts: number;
  links: number;
  /** The global scenario, or null. */
  scenario: string | null;
}

/** `POST /__admin/reset` and `POST /__admin/snapshots/{name}/restore`. */
export interface ResetResult {
  status: 'reset' | 'restored';
  accounts: number;
  links: number;
}

/** `PUT /__admin/scenario`. */
export interface ActiveScenario {
  /** The scenario now active (for the key, when one was given), or null. */
  active: string | null;
  /** The key, when `active` is that key's own scenario. */
  apiKey?: string;
  /** Set with `times`: the uses it has. */
  timesLeft?: number;
}

/** One of `GET /__admin/variety/dimensions`. */
export interface VarietyDimension {
  /** `<operationId>.<field or part>:<variant>`, e.g. `createLink.clickCount:absent`. */
  name: string;
  description: string;
}

/** `GET /__admin/coverage`. */
export interface Coverage {
  documented: Outcome[];
  /** One entry per key that sent requests; with `coverage(apiKey)` at most that key's. */
  accounts: KeyCoverage[];
}

/** An account as the admin API shows it. */
export interface Account {
  id: string;
  name: string;
  apiKey: string;
  linkLimit: number;
  /** How many links it has now. */
  links: number;
  /** Its custom domains (the default domain is usable by every account). */
  domains: Domain[];
}
