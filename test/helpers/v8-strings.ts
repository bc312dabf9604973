// Whether V8 holds a string in its string table (internalized), asked of V8 itself
// (%IsInternalizedString). The flag only lets this one function be compiled with the call.
import { setFlagsFromString } from 'node:v8';

let asked: ((text: string) => boolean) | undefined;

export function isInternalized(text: string): boolean {
  if (!asked) {
    setFlagsFromString('--allow-natives-syntax');
    asked = new Function('text', 'return %IsInternalizedString(text)') as (text: string) => boolean;
  }
  return asked(text);
}
