// The changes of links and tags the Redis store makes (redis-link-store.ts: claimTagName,
// createLink, updateLink, deleteLink, addClicks), each one guarded transaction (redis-txn.ts)
// bounded as every write is (redis-write-bound.ts). A create decided on a remembered account is
// checked against what it was remembered on (redis-remembered-accounts.ts); a tag this instance
// made is remembered for its next readers (redis-fact-cache.ts).
import type { LinkRecord, TagRecord } from '../../core/model.js';
import type { CreateOutcome, LinkChange, NewLink } from '../../core/link-store.js';
import type { RedisConnection } from './redis-connection.js';
import { tagNameField } from './redis-keys.js';
import { createTxn, deleteTxn } from './redis-link-txns.js';
import { decodeJson, decodeLink, encodeLink } from './redis-records.js';
import type { RememberedAccounts } from './redis-remembered-accounts.js';
import type { Build, TxnRunner } from './redis-runner.js';
import { boundedWrite, CAS_ATTEMPTS } from './redis-write-bound.js';

const replaced = (what: string): Error => new Error(`${what}: the data was replaced (reset or snapshot restore) while this request ran`);

/** A tag made in `generation` by this instance: its next readers need no round trip. */
export type RememberTag = (generation: string, tag: TagRecord) => void;

export class RedisLinkWrites {
  constructor(
    private readonly connection: RedisConnection,
    private readonly runner: TxnRunner,
    private readonly remembered: RememberedAccounts,
    private readonly rememberTag: RememberTag,
  ) {}

  /** The record and its name in one step, so a name never points at a missing tag; the first claim wins. */
  claimTagName(tag: TagRecord): Promise<{ tag: TagRecord; created: boolean }> {
    const field = tagNameField(tag.accountId, tag.name);
    const json = JSON.stringify(tag);
    return boundedWrite(this.connection, async () => {
      const outcome = await this.runner.run((t, k) =>
        t.check('lacks?', k.tagNames, field).write('HSET', k.tagNames, field, json).write('HSET', k.tags, tag.id, json).otherwise('HGET', k.tagNames, field),
      );
      const claimed = outcome.status === 'ok' ? { tag, created: true } : { tag: decodeJson<TagRecord>(outcome.replies[0]) as TagRecord, created: false };
      this.rememberTag(outcome.generation, claimed.tag);
      return claimed;
    });
  }

  /**
   * One transaction: in the generation current when it runs, so a create racing a reset is checked
   * against the new data; or, decided on a remembered account, in that account's generation only,
   * after checking that what it was remembered on still holds ('reread' otherwise).
   */
  createLink(create: NewLink): Promise<CreateOutcome> {
    const basis = create.account && this.remembered.basisOf(create.account);
    return boundedWrite(this.connection, async () => {
      let outcomeOf: (failed: number) => CreateOutcome = () => 'gone';
      const build: Build = (t, k) => {
        outcomeOf = createTxn(t, k, create, basis);
        return t;
      };
      const outcome = basis ? await this.runner.runAt(basis.generation, build) : await this.runner.run(build);
      if (outcome.status !== 'ok') {
        const refused = outcome.status === 'stale' ? 'reread' : outcomeOf(outcome.failed);
        if (refused === 'reread' && basis) this.remembered.forget(basis);
        return refused;
      }
      for (const tag of create.newTags) this.rememberTag(outcome.generation, tag);
      return 'stored';
    });
  }

  /** Compare-and-set of the link's record against the one the core read: mostly one round trip. */
  updateLink(link: LinkRecord, change: LinkChange): Promise<LinkRecord | undefined> {
    return boundedWrite(this.connection, async () => {
      let expected = encodeLink(link);
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
        const next = encodeLink(changed(JSON.parse(expected) as LinkRecord, change));
        const outcome = await this.runner.run((t, k) => {
          t.check('equals?', k.links, link.id, expected);
          for (const tagId of change.tagIds ?? []) t.check('has?', k.tags, tagId);
          return t.write('HSET', k.links, link.id, next).read('HGET', k.clicks, link.id).otherwise('HGET', k.links, link.id);
        });
        if (outcome.status === 'ok') return decodeLink(next, outcome.replies[0]);
        if (outcome.failed > 1) throw replaced(`a tag of link ${link.id} is gone`);
        const stored = outcome.replies[0];
        if (typeof stored !== 'string') return undefined;
        expected = stored;
      }
      throw new Error(`store unavailable: link ${link.id} changed under ${CAS_ATTEMPTS} updates in a row`);
    });
  }

  deleteLink(link: LinkRecord): Promise<boolean> {
    return boundedWrite(this.connection, async () => (await this.runner.run((t, k) => deleteTxn(t, k, link))).status === 'ok');
  }

  /** An increment in place, only if the link is there. */
  addClicks(linkId: string, count: number): Promise<LinkRecord | undefined> {
    return boundedWrite(this.connection, async () => {
      const outcome = await this.runner.run((t, k) =>
        t.check('has?', k.links, linkId).write('HINCRBY', k.clicks, linkId, count).read('HGET', k.links, linkId).read('HGET', k.clicks, linkId),
      );
      return outcome.status === 'ok' ? decodeLink(outcome.replies[0], outcome.replies[1]) : undefined;
    });
  }
}

/** Only the fields the update sends; the title dropped when the change says so. */
function changed({ title, ...link }: LinkRecord, change: LinkChange): LinkRecord {
  return {
    ...link,
    ...(title === undefined || change.dropTitle ? {} : { title }),
    ...(change.destinationUrl === undefined ? {} : { destinationUrl: change.destinationUrl }),
    ...(change.tagIds === undefined ? {} : { tagIds: change.tagIds }),
    ...(change.extra === undefined ? {} : { extra: change.extra }),
  };
}
