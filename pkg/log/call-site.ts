// Where a log call was made, named as klog names it in a line's header: the source file's base name
// and line, `server.ts:123`. The binaries run without --enable-source-maps (it keeps every module's
// map in memory), so the stack gives the built .js position; the map tsc writes beside each .js file
// is read once per call site to name the .ts line instead, and the answer is kept. Without a map the
// .js name and line are printed, which is still exact for the file that ran.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Resolved sites by built position: log calls come from a few hundred places, each read once. */
const sites = new Map<string, string>();

/** The file and line of the frame `depth` frames above the call of `below` (klog's `file:line`). */
export function callSite(below: (...args: never[]) => unknown, depth = 0): string {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  let frame: NodeJS.CallSite | undefined;
  // V8 records only `depth + 1` frames and hands them over unformatted: no stack text is built.
  Error.stackTraceLimit = depth + 1;
  Error.prepareStackTrace = (_e, frames) => frames;
  try {
    Error.captureStackTrace(holder, below);
    frame = holder.stack?.[depth];
  } finally {
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
  }
  const file = frame?.getFileName();
  if (!frame || !file) return '???:1';
  const line = frame.getLineNumber() ?? 0;
  const column = frame.getColumnNumber() ?? 0;
  const key = `${file}:${line}:${column}`;
  let site = sites.get(key);
  if (site === undefined) {
    site = sourceSite(file, line, column);
    sites.set(key, site);
  }
  return site;
}

/** The .ts file and line a built position comes from, by the map beside the built file. */
function sourceSite(file: string, line: number, column: number): string {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  try {
    const entry = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))).findEntry(line - 1, column - 1);
    if ('originalSource' in entry) return `${basename(entry.originalSource)}:${entry.originalLine + 1}`;
  } catch {
    // No map, or not one we can read: the built file names itself.
  }
  return `${basename(path)}:${line}`;
}
