// The layers of src/ and the rule against import circles, checked by
// test/architecture/layers.test.ts (run by `npm test`) and by hand with
//   npx depcruise src --config .dependency-cruiser.cjs
// Bottom to top:
//   core     src/core, src/generated  the rules, the model and the ports (interfaces) the stores
//                                     implement; imports nothing of ours but itself, no Express,
//                                     no file system, no network
//   store    src/store/**             the two stores (file, Redis) and what they share: the core only
//   contract src/contract             the contract checker (also judges the proxy's answers): the core only
//   server   src/http, src/admin, src/proxy, src/variety, src/scenarios
//                                     the Express app: the core, the contract checker, each other;
//                                     never a store (the process hands one in), never the process
//   process  src/process, src/cli.ts, src/index.ts, and the commands built on them: src/commands,
//            src/toolkit, src/robustness, src/pact
//                                     everything; nothing below imports it. Within it, src/commands
//                                     (the subcommands as the CLI runs them) is on top: only
//                                     src/cli.ts imports it; what a subcommand shares with the
//                                     robustness runner or the pact export lives below, in src/toolkit
// The paths are relative to the folder cruised (the repository, or a fixture tree of the test).
const CORE = '^src/(core|generated)/';
const SERVER = '^src/(http|admin|proxy|variety|scenarios)/';
const COMMANDS = '^src/(commands|toolkit|robustness|pact)/';
const PROCESS = '^src/(process/|commands/|toolkit/|robustness/|pact/|cli\\.ts$|index\\.ts$)';

/** A rule: modules under `from` import nothing of src/ outside `allowed`. */
const onlyImports = (name, from, allowed, comment) => ({ name, severity: 'error', comment, from: { path: from }, to: { path: '^src/', pathNot: allowed } });
/** A rule: modules under `from` never import `to`. */
const never = (name, from, to, comment) => ({ name, severity: 'error', comment, from, to: { path: to } });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle in src/: a module that needs itself to load. Move the shared part down a layer.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    onlyImports('core-imports-only-core', CORE, CORE, 'The core (rules, model, ports) imports nothing of ours but itself: the stores implement its ports.'),
    never(
      'core-no-io',
      { path: CORE },
      '(^|/)node_modules/(express|express-openapi-validator|cors|redis|@redis|lowdb|supertest)/|^(node:)?(fs|fs/promises|http|https|http2|net|child_process|worker_threads)$',
      'The core has no HTTP, no Express, no file system, no network, no Redis.',
    ),
    onlyImports('store-imports-only-core', '^src/store/', '^src/(store|core|generated)/', "A store implements the core's ports: it imports the core and its own folder, nothing above."),
    onlyImports('contract-imports-only-core', '^src/contract/', '^src/(contract|core|generated)/', 'The contract checker runs in the server and in the commands: it imports only the core.'),
    never('server-not-store', { path: SERVER }, '^src/store/', "The server talks to the core's ports; which store implements them is the process's choice."),
    never('http-not-admin-or-proxy', { path: '^src/http/' }, '^src/(admin|proxy)/', 'src/http is the base of the server: the admin API and the proxy build on it, not the reverse.'),
    never('commands-not-store', { path: COMMANDS }, '^src/store/', 'The commands and the toolkit reach a mock through its HTTP API, never its store.'),
    never(
      'nothing-imports-process',
      { path: '^src/', pathNot: PROCESS },
      PROCESS,
      'The process layer (flags, config, start-up, workers, the commands) is on top: nothing below imports it.',
    ),
    never(
      'only-the-cli-imports-commands',
      { path: '^src/', pathNot: '^src/(commands/|cli\\.ts$)' },
      '^src/commands/',
      'src/commands holds the subcommands as src/cli.ts runs them: the robustness runner, the pact export and the toolkit sit below it; share through src/toolkit (admin-flags.ts: the admin flags).',
    ),
  ],
  options: {
    // Type-only imports count: a port declared in the wrong layer is a type.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)src/admin/console/' },
  },
};
