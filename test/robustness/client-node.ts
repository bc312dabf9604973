// How the robustness tests run their client programs. Each client is its own short node process,
// and brittle-clients.test.ts runs hundreds of them, so what one start costs is most of that
// file's CPU. Node 20's fetch (undici) compiles its HTTP parser, llhttp, from WebAssembly at every
// start: 40 runs of clients/tolerant.mjs took 0.23 s of CPU each with fetch (`node -e 0`: 0.07 s).
// The clients' shared API module therefore speaks node:http (clients/api.cjs); together with
// `--liftoff-only` before that (0.17 s a run), brittle-clients went from 159 to 72 s of CPU alone.
// The clients are CommonJS: Node 20 starts a CommonJS program faster than an ES module one (its ES
// module loader's set-up), and 20 runs of the robustness runner with clients/tolerant took 1.9-2.5
// s of CPU as .cjs against 2.3-2.6 as .mjs (26 Nov 2026): 10-19 ms a client.
export const CLIENT_NODE = [process.execPath] as const;
