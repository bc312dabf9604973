// Stdio carries one JSON-RPC message per line, and the SDK's stdio transport buffers a line until
// its newline: a client that never sends one would grow that buffer without end. This stream sits
// in between and lets no line past MCP_MAX_MESSAGE_BYTES through: the rest of that line is
// skipped up to its newline and the line is refused (`onRefused`), the next line is read as usual.
import { Transform, type TransformCallback } from 'node:stream';
import { MCP_MAX_MESSAGE_BYTES } from './limits.js';

export function boundedLines(onRefused: (bytes: number) => void, maxBytes = MCP_MAX_MESSAGE_BYTES): Transform {
  let lineBytes = 0;
  let skipping = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const passed: Buffer[] = [];
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        lineBytes += end - start;
        if (!skipping && lineBytes > maxBytes) skipping = true;
        // Bytes of a line within the bound go on now: the transport keeps them until the newline.
        if (!skipping) passed.push(chunk.subarray(start, end));
        if (newline !== -1) {
          // The refused line's start went on already: a newline ends it there, and the transport's
          // parse of it fails as one bad line rather than joining the next message.
          if (skipping) {
            passed.push(Buffer.from('\n'));
            onRefused(lineBytes);
          }
          lineBytes = 0;
          skipping = false;
        }
        start = end;
      }
      done(null, Buffer.concat(passed));
    },
  });
}
