// Property names as CEL field names (upstream's cel.Escape): reserved words become __word__, and
// `__`, `.`, `-` and `/` are spelled out; a name that cannot be escaped is not visible to CEL.

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

const identifier = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL field name of the property `name`, or undefined when it has none. */
export function escapeName(name: string): string | undefined {
  if (reserved.has(name)) return `__${name}__`;
  if (!identifier.test(name)) return undefined;
  return name.replaceAll('__', '__underscores__').replaceAll('.', '__dot__').replaceAll('-', '__dash__').replaceAll('/', '__slash__');
}
