// What `npm test` does about the browser the console's end-to-end test drives: binary-plan.ts's
// decision for Chromium, a row per case in test/setup/browser-plan.test.ts. Doing it is the global
// setup's job (e2e-global-setup.ts).
import { aptInstallSteps, planBinary, sudoInstall, type BinaryFacts, type BinaryPlan, type BinarySpec } from './binary-plan.js';

/** The environment variable naming the browser binary; set, it is used as is and nothing is installed. */
export const BROWSER_ENV = 'SHORTLINK_MOCK_CHROMIUM';
/** Where Debian's `chromium` package puts the browser. */
export const DEFAULT_BROWSER = '/usr/bin/chromium';

export const BROWSER: BinarySpec = {
  env: BROWSER_ENV,
  debianPath: DEFAULT_BROWSER,
  aptPackage: 'chromium',
  forWhat: "the console's end-to-end test (test/e2e/console.test.ts) drives a headless Chromium",
  binaryKind: 'a Chromium or Chrome binary',
  withoutApt: `install Chromium or Chrome and set ${BROWSER_ENV} to its binary (macOS: ${BROWSER_ENV}="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")`,
};

/** Run as root, in this order, with DEBIAN_FRONTEND=noninteractive: what .ci/run used to do. */
export const INSTALL_STEPS = aptInstallSteps(BROWSER.aptPackage);
/** The same install for someone who is not root, to copy and paste. */
export const SUDO_INSTALL = sudoInstall(BROWSER.aptPackage);

export type BrowserFacts = BinaryFacts;
export type BrowserPlan = BinaryPlan;

export function planBrowser(facts: BrowserFacts): BrowserPlan {
  return planBinary(BROWSER, facts);
}
