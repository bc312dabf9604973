// What `npm test` does about the browser the console's end-to-end test drives, decided from plain
// facts so that every case is a row of a table test (test/setup/browser-plan.test.ts). Doing it is
// the global setup's job (e2e-global-setup.ts).

/** The environment variable naming the browser binary; set, it is used as is and nothing is installed. */
export const BROWSER_ENV = 'SHORTLINK_MOCK_CHROMIUM';
/** Where Debian's `chromium` package puts the browser. */
export const DEFAULT_BROWSER = '/usr/bin/chromium';
/** Run as root, in this order, with DEBIAN_FRONTEND=noninteractive: what .ci/run used to do. */
export const INSTALL_STEPS: readonly (readonly string[])[] = [
  ['apt-get', 'update'],
  ['apt-get', 'install', '-y', 'chromium'],
];
/** The same install for someone who is not root, to copy and paste. */
export const SUDO_INSTALL = INSTALL_STEPS.map((step) => `sudo ${step.join(' ')}`).join(' && ');

export interface BrowserFacts {
  /** The value of SHORTLINK_MOCK_CHROMIUM; empty counts as unset. */
  configured: string | undefined;
  isExecutable: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type BrowserPlan =
  | { action: 'use'; path: string }
  | { action: 'install'; path: string }
  | { action: 'fail'; message: string };

const FOR_WHAT = "the console's end-to-end test (test/e2e/console.test.ts) drives a headless Chromium";

export function planBrowser(facts: BrowserFacts): BrowserPlan {
  const configured = facts.configured?.trim();
  if (configured) {
    if (facts.isExecutable(configured)) return { action: 'use', path: configured };
    // A path the user chose is never replaced by an install: it would test another browser.
    return { action: 'fail', message: `${BROWSER_ENV}=${configured} is not an executable file: ${FOR_WHAT}; point ${BROWSER_ENV} at a Chromium or Chrome binary, or unset it to use Debian's ${DEFAULT_BROWSER}.` };
  }
  if (facts.isExecutable(DEFAULT_BROWSER)) return { action: 'use', path: DEFAULT_BROWSER };
  if (facts.isRoot && facts.hasAptGet) return { action: 'install', path: DEFAULT_BROWSER };
  const why = `${DEFAULT_BROWSER} is missing and ${facts.isRoot ? 'there is no apt-get' : 'this is not root'}: ${FOR_WHAT}`;
  const how = facts.hasAptGet
    ? `run: ${SUDO_INSTALL} (or set ${BROWSER_ENV} to a Chromium or Chrome binary)`
    : `install Chromium or Chrome and set ${BROWSER_ENV} to its binary (macOS: ${BROWSER_ENV}="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")`;
  return { action: 'fail', message: `${why}; ${how}.` };
}
