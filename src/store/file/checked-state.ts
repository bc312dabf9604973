// The start's one walk of the links (issue 40): each link is checked (integrity.ts) and indexed
// (src/core/link-load.ts) in the same step, and the state it builds is handed on to the store, which
// does not build it again. At 1,000,000 links the check and MockState's constructor each walked the
// links with a table of their slugs: two lookups of every link in a dictionary of a million (a
// miss in the CPU's caches each) and two slug tables, a third of the start.
import { isLinkRecord } from '../../core/changes.js';
import { LinkLoad } from '../../core/link-load.js';
import type { LinkRecord, MockData } from '../../core/model.js';
import { MockState } from '../../core/state.js';
import { IntegrityCheck, type Problem } from './integrity.js';

/** The data's state, built in the walk that checks the data; or what is wrong with the data. */
export type Checked = { state: MockState; problem?: undefined } | { state?: undefined; problem: Problem };

/**
 * Links taken one at a time, each checked and indexed as it is taken, until one is wrong. The data
 * (`head`) may still be being read: its accounts, domains and tags are whole, and its links object
 * the one the links taken are put in.
 */
export class CheckedLoad {
  private readonly check: IntegrityCheck;
  private readonly load: LinkLoad | undefined;
  private problem: Problem | undefined;

  constructor(head: MockData) {
    this.check = new IntegrityCheck(head);
    this.problem = this.check.headProblem;
    this.load = this.problem ? undefined : new LinkLoad(head);
  }

  /** Checks and indexes the link stored under `id`; false once something is wrong (the rest need not be taken). */
  take(id: string, link: unknown): boolean {
    if (this.problem || !this.load) return false;
    // Its ids shared first: the check then finds the instances its tables hold, and checks a tag list every link of those tags shares once per account.
    if (isLinkRecord(link)) this.load.shareIds(link);
    this.problem = this.check.linkProblem(id, link);
    if (this.problem) return false;
    if (this.load.index(link as LinkRecord)) return true;
    this.problem = this.check.slugProblem(id, link as LinkRecord);
    return false;
  }

  /** The state of `data` (the head's fields, and the links taken), or what is wrong with it. */
  result(data: MockData): Checked {
    return this.problem || !this.load ? { problem: this.problem as Problem } : { state: new MockState(data, this.load) };
  }
}

/** `data`'s links (under the keys `linkIds`, in that order) checked and indexed in one walk. */
export function checkedState(data: MockData, linkIds: Iterable<string>): Checked {
  const load = new CheckedLoad(data);
  for (const id of linkIds) if (!load.take(id, data.links.get(id))) break;
  return load.result(data);
}
