// Proof that the package installs (issue 14, item 4; issue 25, item 1): the toolkit guide's tarball
// commands run as written: `npm pack` in the clone (this repository), then `npm install -D` of the
// tarball in a fresh project beside it (no access to this repository's node_modules), and
// `npx shortlink-mock --version` there. There the CLI answers, and a TypeScript file that imports
// startMock and the API's types compiles under --strict and runs a create/update/delete. The
// tarball's contents are checked against what the package needs at run time and a size budget the
// toolkit guide (docs/toolkit.md) states. `pact check` works there both without its optional engine (npm leaves it out when
// its install script fails, as in a CI install by an npm that runs dependency scripts) and with it.
// The tarball goes to a temporary folder beside the project, never into the clone, where a tarball
// the user packed by the guide stays as it was (issue 37, C1).
// The pack's `prepack` build finds dist/ up to date (`npm test` builds before vitest runs), so it
// rewrites nothing under the other test files that run the CLI from it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { fixturePath } from '../pact/pact-fixtures.js';
import { CONSUMER_EXPECTED, CONSUMER_PROGRAM } from './consumer-program.js';
import { startInstalledCli } from './installed-cli.js';
import { NPM_TEST_ENV, TOOLKIT_GUIDE, readmeInstallCommands, runReadmeCommands } from './readme-install.js';
import { runCommand, type CommandResult } from './run-command.js';
import { scratchDir } from './scratch.js';

const ours = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const ENGINE = '@pactflow/swagger-mock-validator';
/** The tarball the guide's `npm pack` writes in a user's clone: never this test's to write or remove. */
const TARBALL = join(PACKAGE_ROOT, `shortlink-mock-${ours.version}.tgz`);

/**
 * The unpacked size the package must stay under. Measured on 26 Nov 2026 after issue 26 (variety
 * mode and the robustness runner, about 85 KB of dist/src/variety and dist/src/robustness without
 * source maps): 1,264,043 bytes in 463 files (dist/src and dist/fixtures as .js and .d.ts, the
 * contracts, fixtures, scenarios and the console; 949,711 in 355 on 23 Nov after issue 15), plus
 * about 15% for growth. A jump past it means something that should not ship does. The toolkit guide
 * states this number. Raised on 28 Nov 2026 for what ships with issues 38, 39 and 41 (the next
 * contract's loader, classes and generated fields; `evolve`; the MCP server): 1,601,345 bytes,
 * plus about 15%. Raised on 29 Nov 2026 for issue 40's loading, seeding and store code (the file
 * store's record reader and one-walk load, the seed's own index, bounded id sets, sliced sorts, the
 * Redis store's batched snapshots): 1,893,635 bytes, plus about 10%. Raised on 30 Nov 2026 (stop 54)
 * for the fixes of five black-box sweeps (the admin API under any contract FILE and its schema import,
 * the admin document's 400s, start-up refusals naming their flag, the bounded Redis start, the MCP
 * server's served contract and params check, the missing-body check) and the file splits of stop 53:
 * 2,142,221 bytes, plus about 5%.
 */
const UNPACKED_BUDGET_BYTES = 2_250_000;
/** TypeScript 7, what a consumer's `npm install -D typescript` installs today (recipes.test.ts compiles the examples with 5.9). */
const TSC = join(PACKAGE_ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');
const INSTALL_LIMIT_MS = 120_000;
const RUN_LIMIT_MS = 30_000;

let scratch: string;
/** Where the guide's npm pack writes the tarball here: beside the project, never in the clone. */
let packedInto: string;
let consumer: string;
let readmeRun: CommandResult[] = [];
/** What `npm pack --json` reports of the tarball it wrote. */
interface PackReport {
  files: { path: string }[];
  unpackedSize: number;
}
let packReport: PackReport | undefined;
/** What the clone held at the tarball's name before this file ran: a user's own tarball, or a sentinel of ours. */
let inTheClone: TarballPlace | undefined;

interface TarballPlace {
  bytes: Buffer;
  /** True when the file is this test's sentinel (removed after), false when it is the user's. */
  ours: boolean;
}

/**
 * A tarball the user packed (the guide's own `npm pack`) is theirs: this file must pack elsewhere
 * and leave it as it is. Where there is none, a sentinel stands in for it, so that every run checks.
 */
function holdTarballPlace(): TarballPlace {
  if (existsSync(TARBALL)) return { bytes: readFileSync(TARBALL), ours: false };
  const bytes = Buffer.from(`not a tarball: a sentinel of pack-install.test.ts (pid ${process.pid}); a run of it that stopped half-way left it\n`);
  writeFileSync(TARBALL, bytes, { flag: 'wx' });
  return { bytes, ours: true };
}

/** Removes the sentinel, and only if it is still the one this run wrote. */
function releaseTarballPlace(place: TarballPlace | undefined): void {
  if (place?.ours && existsSync(TARBALL) && readFileSync(TARBALL).equals(place.bytes)) rmSync(TARBALL);
}

beforeAll(async () => {
  for (const built of ['dist/src/cli.js', 'dist/src/index.js', 'dist/src/index.d.ts']) {
    if (!existsSync(join(PACKAGE_ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does)`);
  }
  inTheClone = holdTarballPlace();
  scratch = scratchDir('shortlink-mock-pack-');
  // The toolkit guide's layout, the user's project beside the clone: npm pack runs in the clone
  // (this repository) and writes its tarball into scratch/shortlink-mock/ (npm's pack-destination
  // setting, a variable: the line stays the guide's), where the guide's install line looks for it.
  // Nothing is written into the clone: a tarball the user packed there stays theirs.
  packedInto = join(scratch, 'shortlink-mock');
  mkdirSync(packedInto);
  consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  // A consumer on npm 11's strictest install-script policy: a dependency's install script that
  // allowScripts does not cover fails the install. It covers the scripts of our dependencies (the
  // engine's `postinstall: patch-package`, approved: it exits 1 under CI=true, and npm must then
  // leave the optional engine out and still succeed; scarf's telemetry, denied) and none of ours:
  // a `prepare`, `postinstall` or the like of ours fails this install as it would fail theirs.
  const allowScripts = { [`${ENGINE}@${ours.optionalDependencies[ENGINE]}`]: true, '@scarf/scarf': false };
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', allowScripts }));
  const strict = { ...NPM_TEST_ENV, npm_config_strict_allow_scripts: 'true' };
  const dirs = { clone: PACKAGE_ROOT, project: consumer };
  // With npm's json setting (a variable: the line stays the guide's) the guide's `npm pack` reports
  // what it packed, as a run of `npm pack --dry-run --json` of its own did (1.6 s of CPU more),
  // for the checks of the tarball's contents below; its scripts' output then goes to stderr.
  const [pack, ...install] = readmeInstallCommands().tarball;
  readmeRun = await runReadmeCommands([pack!], dirs, INSTALL_LIMIT_MS, { ...strict, npm_config_json: 'true', npm_config_pack_destination: packedInto });
  if (readmeRun[0]?.code === 0) readmeRun.push(...(await runReadmeCommands(install, dirs, INSTALL_LIMIT_MS, strict)));
  for (const result of readmeRun) expect(result.code, result.transcript).toBe(0);
  [packReport] = JSON.parse(readmeRun[0]!.stdout) as PackReport[];
}, 3 * INSTALL_LIMIT_MS + 10_000);

afterAll(() => {
  releaseTarballPlace(inTheClone);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the toolkit guide's tarball commands", () => {
  test('are npm pack in the clone, then npm install -D of the tarball and npx shortlink-mock --version in the project', () => {
    expect(readmeInstallCommands().tarball).toEqual([
      { line: 'npm pack', where: 'clone' },
      { line: `npm install -D ../shortlink-mock/shortlink-mock-${ours.version}.tgz`, where: 'project' },
      { line: 'npx shortlink-mock --version', where: 'project' },
    ]);
  });

  test('all ran, and the last printed the version', () => {
    expect(readmeRun.map((result) => result.code)).toEqual([0, 0, 0]);
    expect(readmeRun[2]?.stdout.trim()).toBe(ours.version);
  });
});

describe('a tarball already in the clone', () => {
  test("is left as it was: the guide's npm pack writes elsewhere here", () => {
    expect(existsSync(join(packedInto, `shortlink-mock-${ours.version}.tgz`))).toBe(true);
    expect(existsSync(TARBALL), TARBALL).toBe(true);
    expect(readFileSync(TARBALL).equals(inTheClone!.bytes), TARBALL).toBe(true);
  });
});

describe('the packed package, installed in a fresh project', () => {
  test('the CLI starts on --port 0, prints its URL and answers GET /__admin/health', async () => {
    const cli = await startInstalledCli(join(consumer, 'node_modules', '.bin', 'shortlink-mock'), consumer, RUN_LIMIT_MS);
    try {
      const response = await fetch(`${cli.url}/__admin/health`, { signal: AbortSignal.timeout(RUN_LIMIT_MS) });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', version: ours.version });
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  test('a TypeScript file importing startMock and the types compiles with tsc --strict and runs a create/update/delete', async () => {
    writeFileSync(join(consumer, 'main.ts'), CONSUMER_PROGRAM);
    const tscFlags = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node'];
    // The compiler is this repository's own TypeScript 7 (our pinned version, which the consumer
    // used to get from an `npm install -D typescript @types/node` of its own: 5 s of CPU). The
    // program still resolves from the consumer's node_modules alone, never from ours: tsc looks
    // 'shortlink-mock' and @types/node (which our dependencies bring: express-openapi-validator →
    // @types/express) up from main.ts's folder, not from its own. TypeScript 5.9 took 7.8 s of
    // CPU for this compile (5.5 without checking its own lib files); 7 checks everything in ~1 s.
    const compile = await runCommand(process.execPath, [TSC, ...tscFlags, 'main.ts'], consumer, RUN_LIMIT_MS);
    expect(compile.code, compile.transcript).toBe(0);
    const run = await runCommand(process.execPath, ['main.js'], consumer, RUN_LIMIT_MS);
    expect(run.code, run.transcript).toBe(0);
    const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(lastLine), run.transcript).toEqual(CONSUMER_EXPECTED);
  }, 2 * RUN_LIMIT_MS);

  test("the toolkit guide's node:test recipe runs there as written: npm install -D tsx, then node --import tsx --test", async () => {
    const recipe = /- \*\*node:test\*\*[\s\S]*?(?=\n- \*\*)/.exec(TOOLKIT_GUIDE)?.[0].replace(/\s+/g, ' ') ?? '';
    const commands = [...recipe.matchAll(/`(npm install -D tsx|node --import tsx --test [^`]+)`/g)].map(([, line]) => ({ line: line!, where: 'project' as const }));
    expect(commands.map(({ line }) => line)).toEqual(['npm install -D tsx', 'node --import tsx --test node-test.test.ts']);
    copyFileSync(join(PACKAGE_ROOT, 'examples', 'node-test.test.ts'), join(consumer, 'node-test.test.ts'));
    const [install, run] = await runReadmeCommands(commands, { clone: PACKAGE_ROOT, project: consumer }, INSTALL_LIMIT_MS, NPM_TEST_ENV);
    expect(install?.code, install?.transcript).toBe(0);
    expect(run?.code, run?.transcript).toBe(0);
    // Node 20 and 22 report in TAP when not on a terminal, Node 24 with its spec reporter.
    expect(run?.stdout).toMatch(/[#ℹ] pass 2\n[#ℹ] fail 0/);
  }, INSTALL_LIMIT_MS + RUN_LIMIT_MS);

  // npm 11 counts `prepare` of a package from a tarball, a folder or git as an install script (it
  // asks for approval, and --strict-allow-scripts fails on it); a git install's build is ours to
  // run in npm's clone as `preprepare`, which no consumer's install runs.
  test('installing it runs no script of ours (a consumer has none of our dev tools), and the toolkit guide says so', () => {
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules', 'shortlink-mock', 'package.json'), 'utf8')) as typeof ours;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(installed.scripts[hook], hook).toBeUndefined();
    expect(TOOLKIT_GUIDE).toContain('Installing runs no script of the package');
  });
});

describe('pact check in the installed package', () => {
  // The installed CLI through npm's link for its "bin", as npx would find it, without npx's own
  // start-up (about 0.4 s of CPU a run; the guide's `npx shortlink-mock --version` runs it as written).
  const bin = () => join(consumer, 'node_modules', '.bin', 'shortlink-mock');
  const pactCheck = (fixture: string) => runCommand(process.execPath, [bin(), 'pact', 'check', fixturePath(fixture)], consumer, RUN_LIMIT_MS);
  const engineInstalled = () => existsSync(join(consumer, 'node_modules', ENGINE, 'package.json'));
  const NOTE = 'note: swagger-mock-validator (an optional dependency) is not installed: ';

  test("without the engine (its install script failed, so npm left it out): the mock's own checks judge, and say so", async () => {
    expect(engineInstalled()).toBe(false);
    const good = await pactCheck('good-v4.json');
    expect(good.code, good.transcript).toBe(0);
    expect(good.stdout, good.transcript).toContain(NOTE);
    const bad = await pactCheck('undocumented-status.json');
    expect(bad.code, bad.transcript).toBe(1);
    expect(bad.stdout).toContain('response status: 409 is not documented for this operation (documented: 201, 400, 401, 404)  [shortlink-mock]');
  }, 2 * RUN_LIMIT_MS);

  test('with the engine (installed without its script, as npm 11 does by default): it judges, and no note', async () => {
    const install = await runCommand('npm', ['install', '--ignore-scripts'], consumer, INSTALL_LIMIT_MS, NPM_TEST_ENV);
    expect(install.code, install.transcript).toBe(0);
    expect(engineInstalled(), install.transcript).toBe(true);
    const bad = await pactCheck('undocumented-status.json');
    expect(bad.code, bad.transcript).toBe(1);
    expect(bad.stdout).toContain('response status: 409 is not documented for this operation (documented: 201, 400, 401, 404)  [swagger-mock-validator]');
    expect(bad.stdout).not.toContain(NOTE);
  }, INSTALL_LIMIT_MS + RUN_LIMIT_MS);
});

describe("the tarball the guide's npm pack wrote", () => {
  let files: string[];
  let unpackedSize: number;

  beforeAll(() => {
    files = packReport!.files.map((file) => file.path);
    unpackedSize = packReport!.unpackedSize;
  });

  test('holds what the CLI and startMock need at run time', () => {
    const needed = ['package.json', 'dist/src/cli.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'openapi.yaml', 'fixtures/accounts.json'];
    // The proxy's judging thread is started from its own file, beside the module that starts it.
    const alsoNeeded = ['scenarios/scenario.schema.json', 'src/admin/openapi.yaml', 'src/admin/console/index.html', 'dist/src/proxy/answer-judge-worker.js'];
    expect(files).toEqual(expect.arrayContaining([...needed, ...alsoNeeded]));
  });

  // The contract suite `shortlink-mock contract` runs is src/contract (dist/src/contract);
  // contract-tests/ is its vitest wrapper for this repository.
  test('holds no tests, benches, examples, patches, source maps, TypeScript sources or build info', () => {
    const unwanted = files.filter(
      (path) => /^(test|bench|contract-tests|examples|patches)\//.test(path) || /\.map$|\.tsbuildinfo$/.test(path) || (/\.[cm]?ts$/.test(path) && !/\.d\.[cm]?ts$/.test(path)),
    );
    expect(unwanted).toEqual([]);
  });

  test('holds no stale build output (compiled from a source that no longer exists)', () => {
    const sources = new Set(files.filter((path) => path.startsWith('dist/')).map((path) => path.replace(/^dist\//, '').replace(/\.(js|d\.ts)$/, '.ts')));
    const stale = [...sources].filter((source) => !existsSync(join(PACKAGE_ROOT, source)));
    expect(stale, 'rebuild from clean: rm -rf dist && npm run build').toEqual([]);
  });

  test(`stays under the budget of ${UNPACKED_BUDGET_BYTES} bytes unpacked, the figure the toolkit guide states`, () => {
    expect(unpackedSize).toBeLessThan(UNPACKED_BUDGET_BYTES);
    const stated = [...TOOLKIT_GUIDE.matchAll(/([\d,]+) bytes unpacked/g)].map(([, figure]) => figure);
    expect(stated).toEqual([UNPACKED_BUDGET_BYTES.toLocaleString('en-US')]);
  });
});
