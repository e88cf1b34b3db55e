// YAML parsing for configuration files, with the parser loaded on the first file read. The `yaml`
// package costs a thread about 6 MiB once loaded; the main thread of `--workers` checks the flags that
// name configuration files (admission, audit policy) but, given none, never needs it.
import { createRequire } from 'node:module';
import type * as YAML from 'yaml';

let yaml: typeof YAML | undefined;

/** `yaml`'s parse: the same module instance an `import 'yaml'` elsewhere gets (it is CommonJS). */
export function parseYAML(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof YAML;
  return yaml.parse(text);
}
