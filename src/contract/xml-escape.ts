// Text for XML 1.0 files (the JUnit reports): escaped, and characters XML 1.0 cannot carry at all
// (a fuzzed or proxied body may hold any) replaced by U+FFFD, so the file always parses.

/** Characters outside XML 1.0's Char production become U+FFFD. */
function xmlSafe(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}

/** Element content. */
export function xmlText(value: string): string {
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes; line breaks and tabs kept as character references. */
export function xmlAttr(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
