// How the robustness tests run their client programs. Each client is its own short node process,
// and brittle-clients.test.ts runs hundreds of them, so what one start costs is most of that
// file's CPU. Node 20's fetch (undici) compiles its HTTP parser, llhttp, from WebAssembly at every
// start: 40 runs of clients/tolerant.mjs took 0.23 s of CPU each with fetch (`node -e 0`: 0.07 s).
// The clients' shared API module therefore speaks node:http (clients/api.mjs); together with
// `--liftoff-only` before that (0.17 s a run), brittle-clients went from 159 to 72 s of CPU alone.
export const CLIENT_NODE = [process.execPath] as const;
