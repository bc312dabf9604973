// The writes of the store of one process (local-link-store.ts): each change, made to memory first,
// made durable through `persist` (the DataStore's write through its group commit, src/process/mock.ts),
// and undone if that fails, so that memory never holds what the disk does not. A new tag is written
// with the first link that names it.
import type { Change, StoreOp } from '../../core/changes.js';
import type { LinkRecord, TagRecord } from '../../core/model.js';
import type { MockState } from '../../core/state.js';

export type Persist = (ops: StoreOp[]) => Promise<void>;

export class ChangeWrites {
  /** New tags not yet written: the first write of a link that names one writes it too. */
  private readonly unwrittenTags = new Set<string>();

  /** `state`: the store's state at each call (a replace swaps it). */
  constructor(
    private readonly state: () => MockState,
    private readonly persist: Persist,
  ) {}

  /** A new tag added to memory: written with the first link that names it. */
  tagAdded(tag: TagRecord): void {
    this.unwrittenTags.add(tag.id);
  }

  /** The data replaced: the tags not written yet were the old data's. */
  replaced(): void {
    this.unwrittenTags.clear();
  }

  /**
   * Writes the link with every tag it names that is not written yet (another request's new tag, too).
   * One promise reaction, not two nested async functions: this runs on every create and update
   * (bench/create-cost.md, "Which cut bought what"). A failed write undoes the change, then
   * forgets this request's new tags no link names, as `write` and a catch here did.
   */
  writeLink(link: LinkRecord, createdTags: readonly TagRecord[], undo: () => void): Promise<void> {
    const changes: Change[] = [];
    for (const id of link.tagIds) if (this.unwrittenTags.has(id)) changes.push({ op: 'put-tag', tag: this.state().tagById(id) as TagRecord });
    const written = changes.length;
    changes.push({ op: 'put-link', link });
    return this.persist(changes).then(
      () => {
        for (let i = 0; i < written; i += 1) this.unwrittenTags.delete((changes[i] as Change & { op: 'put-tag' }).tag.id);
      },
      (error: unknown) => {
        undo();
        this.forgetUnusedTags(createdTags);
        throw error;
      },
    );
  }

  async write(changes: StoreOp[], undo: () => void): Promise<void> {
    try {
      await this.persist(changes);
    } catch (error) {
      undo();
      throw error;
    }
  }

  /** This request's new tags, when no link names them: as if they had never been claimed. */
  private forgetUnusedTags(createdTags: readonly TagRecord[]): void {
    const state = this.state();
    for (const tag of createdTags) {
      if (!this.unwrittenTags.has(tag.id) || state.isTagNamed(tag.id)) continue;
      state.removeTag(tag);
      this.unwrittenTags.delete(tag.id);
    }
  }
}
