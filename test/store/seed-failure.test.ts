// A seed that fails at start is its own error, whichever store it seeds: the file store builds its
// seed inside the write of the new base (DataStore.seed, issue 40), and a failure there was told
// as the db's ("cannot write db …"), which sends the user to look at the disk for a seed's fault.
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/store/file/data-store.js';
import { DataFileError, openData } from '../../src/store/file/open-data.js';
import { useFileDb } from '../helpers/file-db.js';

const db = useFileDb('slm-seed-failure-');
const broken = new Error('the fixtures named an account twice');

describe('a seed that fails at start', () => {
  it('is its own error on the file store, and leaves no file', async () => {
    const failure = await openData(db.logStore(), () => Promise.reject(broken), true).catch((error: unknown) => error);
    expect(failure).toBe(broken);
    expect(failure).not.toBeInstanceOf(DataFileError);
    expect(existsSync(db.file)).toBe(false);
    expect(readdirSync(dirname(db.file)).filter((name) => name.startsWith('db.json'))).toEqual([]);
  });

  it('is its own error in memory too', async () => {
    await expect(openData(memoryStore(), () => Promise.reject(broken), true)).rejects.toBe(broken);
  });
});
