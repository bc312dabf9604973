// How the robustness tests run their client programs: node with V8's baseline WebAssembly compiler
// only. Each client is its own short node process that calls fetch once or twice, and Node 20's
// fetch (undici) compiles its HTTP parser, llhttp, from WebAssembly at every start, with the
// optimising compiler too: measured on the 2-core machine, 40 runs of clients/tolerant.mjs took
// 0.23 s of CPU each as `node tolerant.mjs` and 0.17 s as `node --liftoff-only tolerant.mjs`
// (`node -e 0`: 0.07 s). brittle-clients.test.ts runs hundreds of them. The flag changes how
// fast V8 gets to run the parser, not what the client does or what the runner sees.
export const CLIENT_NODE = [process.execPath, '--liftoff-only'] as const;
