// --version as kube-apiserver and kube-controller-manager take it: bare or =true prints the version
// and exits, =false is as if it were not given. Container images and packagers call it to tell
// which build they hold without starting anything.
import { gitVersion } from '../../pkg/version/version.js';

/** The yargs definition of --version (a string, so that `--version` alone and `--version=true` both parse). */
export const versionFlagDefinition = {
  type: 'string',
  describe: '--version, --version=true prints version information and quits; --version=false does nothing.',
  group: 'Global:',
} as const;

/** What --version asks for: the line to print and exit with, an error, or nothing (run as usual). */
export function versionRequest(value: unknown): { print: string } | { error: string } | undefined {
  if (value === undefined || value === 'false') return undefined;
  if (value === '' || value === 'true') return { print: `Kubernetes ${gitVersion}\n` };
  return { error: `invalid argument ${JSON.stringify(String(value))} for "--version" flag: want true or false` };
}

/** Prints the version and exits 0, or refuses a bad value and exits 1, when --version asks; returns otherwise. */
export function exitOnVersionFlag(name: string, value: unknown): void {
  const request = versionRequest(value);
  if (request === undefined) return;
  if ('error' in request) {
    process.stderr.write(`Error: ${request.error}\n\nRun '${name} --help' for usage.\n`);
    process.exit(1);
  }
  process.stdout.write(request.print);
  process.exit(0);
}
