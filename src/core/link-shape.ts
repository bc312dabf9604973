// The port through which a contract FILE shapes Links (--contract; built in src/contract/link-fields.ts):
// the values of the Link fields FILE adds, stored with a new link (LinkRecord.extra) and changed by an
// update that sends them, and the Link as FILE shows it. Absent for the shipped contract: the
// default path never calls it.
import type { Link } from './api-types.js';
import type { LinkRecord } from './model.js';

export interface LinkShape {
  /** The new fields' values for a new link: made from FILE's schemas, or as the request sends them. */
  created(input: Readonly<Record<string, unknown>>, linkId: string): Record<string, unknown>;
  /** The new fields an update sends (undefined: none). */
  updated(input: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined;
  /** The Link as FILE shows it: the fields it removed left out, the new ones in. */
  shown(link: Link, record: LinkRecord): Link;
}
