// planBrowser, the e2e set-up's decision, as a table: use a browser, install Debian's chromium, or
// fail with the exact command to run. The set-up itself (e2e-global-setup.ts) only carries it out.
import { describe, expect, it } from 'vitest';
import { BROWSER_ENV, DEFAULT_BROWSER, planBrowser, SUDO_INSTALL, type BrowserFacts, type BrowserPlan } from './browser-plan.js';

const MAC_CHROME = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';

interface Row {
  what: string;
  configured?: string;
  executables: string[];
  isRoot: boolean;
  hasAptGet: boolean;
  action: BrowserPlan['action'];
  /** The path used or installed; for a failure, what the message must say. */
  expected: string | RegExp[];
}

const rows: Row[] = [
  { what: 'Debian chromium present', executables: [DEFAULT_BROWSER], isRoot: false, hasAptGet: true, action: 'use', expected: DEFAULT_BROWSER },
  { what: 'Debian chromium present, root', executables: [DEFAULT_BROWSER], isRoot: true, hasAptGet: true, action: 'use', expected: DEFAULT_BROWSER },
  { what: 'missing, root with apt-get', executables: [], isRoot: true, hasAptGet: true, action: 'install', expected: DEFAULT_BROWSER },
  {
    what: 'missing, not root',
    executables: [],
    isRoot: false,
    hasAptGet: true,
    action: 'fail',
    expected: [/\/usr\/bin\/chromium is missing and this is not root/, new RegExp(`run: ${SUDO_INSTALL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `), new RegExp(BROWSER_ENV)],
  },
  { what: 'missing, root without apt-get', executables: [], isRoot: true, hasAptGet: false, action: 'fail', expected: [/there is no apt-get/, new RegExp(`set ${BROWSER_ENV} to its binary`)] },
  { what: 'missing, not root, no apt-get (macOS)', executables: [], isRoot: false, hasAptGet: false, action: 'fail', expected: [/this is not root/, /macOS: SHORTLINK_MOCK_CHROMIUM="\/Applications\/Google Chrome\.app/] },
  { what: 'configured and there', configured: MAC_CHROME, executables: [MAC_CHROME], isRoot: false, hasAptGet: false, action: 'use', expected: MAC_CHROME },
  { what: 'configured, Debian chromium missing, root: no install', configured: '/opt/chrome/chrome', executables: ['/opt/chrome/chrome'], isRoot: true, hasAptGet: true, action: 'use', expected: '/opt/chrome/chrome' },
  { what: 'configured with spaces around', configured: ` ${MAC_CHROME} `, executables: [MAC_CHROME], isRoot: false, hasAptGet: false, action: 'use', expected: MAC_CHROME },
  {
    what: 'configured but missing, root: fails rather than installs another browser',
    configured: '/opt/none/chrome',
    executables: [DEFAULT_BROWSER],
    isRoot: true,
    hasAptGet: true,
    action: 'fail',
    expected: [/^SHORTLINK_MOCK_CHROMIUM=\/opt\/none\/chrome is not an executable file/, /unset it to use Debian's \/usr\/bin\/chromium/],
  },
  { what: 'configured empty counts as unset', configured: '', executables: [], isRoot: true, hasAptGet: true, action: 'install', expected: DEFAULT_BROWSER },
  { what: 'configured blank counts as unset', configured: '  ', executables: [DEFAULT_BROWSER], isRoot: false, hasAptGet: true, action: 'use', expected: DEFAULT_BROWSER },
];

describe('planBrowser', () => {
  it.each(rows)('$what: $action', (row) => {
    const asked: string[] = [];
    const facts: BrowserFacts = {
      configured: row.configured,
      isExecutable: (path) => (asked.push(path), row.executables.includes(path)),
      isRoot: row.isRoot,
      hasAptGet: row.hasAptGet,
    };
    const plan = planBrowser(facts);
    expect(plan.action).toBe(row.action);
    if (plan.action === 'fail') {
      for (const pattern of row.expected as RegExp[]) expect(plan.message).toMatch(pattern);
      expect(plan.message).toMatch(/test\/e2e\/console\.test\.ts/);
    } else {
      expect(plan.path).toBe(row.expected);
    }
    // A configured path is the only one looked at: the default is never used in its place.
    if (row.configured?.trim()) expect(asked).toEqual([row.configured.trim()]);
  });

  it('tells someone who is not root the exact command', () => {
    expect(SUDO_INSTALL).toBe('sudo apt-get update && sudo apt-get install -y chromium');
  });
});
