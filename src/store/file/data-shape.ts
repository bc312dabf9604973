// The shape of the data a db holds, checked at start before its references are
// (src/store/file/open-data.ts); and the one-line form of what is wrong, for the messages.
import { isAccountRecord, isTagRecord } from '../../core/changes.js';
import { DATA_FORMAT_VERSION, type MockData } from '../../core/model.js';

/** One printable line: a parse error may quote the file's raw bytes, newlines and NULs included. */
export function printable(message: string): string {
  const line = message.replace(/[^\x20-\x7e]+/g, '?');
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** What is wrong with the data's shape, but for the links' records, which the walk of them checks (checked-state.ts). */
export function shapeProblem(data: unknown): string | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return 'not a JSON object';
  const record = data as Partial<MockData>;
  if (record.formatVersion !== DATA_FORMAT_VERSION) return `formatVersion is ${printable(String(record.formatVersion))}; this shortlink-mock reads 1 and ${DATA_FORMAT_VERSION}`;
  if (!record.defaultDomain || !Array.isArray(record.accounts)) return 'defaultDomain or accounts missing';
  if (!record.tags || typeof record.tags !== 'object' || !record.links || typeof record.links !== 'object') return 'tags or links missing';
  const badAccount = record.accounts.findIndex((account) => !isAccountRecord(account));
  if (badAccount !== -1) return `accounts[${badAccount}] is not an account`;
  // Not Object.entries: a [key, value] array per record (issue 40).
  const badTag = Object.keys(record.tags).find((id) => !isTagRecord(record.tags?.[id]));
  if (badTag !== undefined) return `tag '${printable(badTag)}' is not a tag`;
  return undefined;
}
