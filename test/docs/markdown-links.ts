// A small check of the relative links of markdown files: each must name a file that exists and,
// after '#', a heading of that file. The anchors are GitHub's: the heading's text in lower case,
// with punctuation but '-' and '_' removed and spaces made '-'; a repeated one gets '-1', '-2', ….
// Code blocks are skipped: neither their '#' lines nor their brackets are markdown.

export interface MarkdownLink {
  /** 1-based line of the file. */
  line: number;
  target: string;
}

/** The file's lines, with the lines of fenced code blocks (fences included) blanked. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** The anchor GitHub gives a heading's text. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a markdown file's headings, repeated ones numbered as GitHub numbers them. */
export function anchorsOf(text: string): Set<string> {
  const counts = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const anchor = headingAnchor(heading);
    const seen = counts.get(anchor) ?? 0;
    counts.set(anchor, seen + 1);
    anchors.add(seen === 0 ? anchor : `${anchor}-${seen}`);
  }
  return anchors;
}

/** Every inline link or image target of a file that is relative: no scheme (http:, mailto:, …). */
export function relativeLinks(text: string): MarkdownLink[] {
  return proseLines(text).flatMap((line, index) =>
    [...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ line: index + 1, target })),
  );
}

/** What a repository needs to answer for the check: a file's text, or undefined when it is no file. */
export interface Files {
  /** The path joined as a link from `from` resolves it, from the repository root. */
  resolve(from: string, target: string): string;
  /** The file's text; '' for a directory or another kind of file; undefined when nothing is there. */
  read(path: string): string | undefined;
}

/** The broken links of one markdown file, each as `file:line: target (why)`. */
export function brokenLinks(path: string, text: string, files: Files): string[] {
  return relativeLinks(text).flatMap(({ line, target }) => {
    const [file = '', anchor] = target.split('#', 2);
    const resolved = file === '' ? path : files.resolve(path, file);
    const content = file === '' ? text : files.read(resolved);
    const where = `${path}:${line}: ${target}`;
    if (content === undefined) return [`${where} (no file ${resolved})`];
    if (anchor === undefined) return [];
    if (!resolved.endsWith('.md')) return [`${where} (an anchor in a file that is not markdown)`];
    return anchorsOf(content).has(decodeURIComponent(anchor)) ? [] : [`${where} (no heading '${anchor}' in ${resolved})`];
  });
}
