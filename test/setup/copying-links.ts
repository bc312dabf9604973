// SHORTLINK_MOCK_TEST_LINK_TABLE=copying (vitest.config.ts): every links table made in this run hands
// out copies (test/helpers/copying-link-table.ts). Set for the whole run, before each file's tests.
import { setLinkTableClass } from '../../src/core/link-table.js';
import { CopyingLinkTable } from '../helpers/copying-link-table.js';

setLinkTableClass(CopyingLinkTable);
