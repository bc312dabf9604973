// The commands of the guide "Run it in a container" (docs/container.md), read from it so that the container
// test runs what a user copies: each command with the `# →` answer shown under it, if any. The
// test swaps only the names (image, container, volume) and the published port for its own.
import { readMarkdown } from '../helpers/guides.js';

export interface ReadmeContainerCommand {
  line: string;
  /** The documented answer: its status and its body, `…` standing for any text. */
  answer?: { status: number; body: RegExp };
}

const SECTION = '# Run it in a container';

export function readmeContainerCommands(readme = readMarkdown('docs/container.md')): ReadmeContainerCommand[] {
  const start = readme.indexOf(SECTION);
  if (start === -1) throw new Error(`docs/container.md has no "${SECTION}" section`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? '';
  const commands: ReadmeContainerCommand[] = [];
  for (const line of block.split('\n').filter((text) => text.trim() !== '')) {
    const answer = /^# → (\d{3}) (.*)$/.exec(line);
    const last = commands.at(-1);
    if (answer && last) last.answer = { status: Number(answer[1]), body: bodyPattern(answer[2] ?? '') };
    else commands.push({ line: line.trim() });
  }
  return commands;
}

function bodyPattern(shown: string): RegExp {
  const escaped = shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`, 's');
}

/** The guide's names, for the test to replace with its own. */
export const README_NAMES = { image: 'shortlink-mock', container: 'shortlink-mock', volume: 'shortlink-mock-data', publish: '-p 4010:4010', url: 'http://127.0.0.1:4010' } as const;
