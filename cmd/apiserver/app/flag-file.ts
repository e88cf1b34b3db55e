// The file a flag names, read once at start: a file that cannot be read stops the start with an
// error naming the flag, whichever flag group it belongs to.
import { readFileSync } from 'node:fs';

/** The contents of `file`, which --`flag` names; throws naming the flag when it cannot be read. */
export function readFlagFile(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`--${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
