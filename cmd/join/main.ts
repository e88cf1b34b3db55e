// Entry point of the join command: flags -> options -> join; exit 0 with the node's identity
// printed once the kubeconfig is written, exit 1 with the reason otherwise.
import { Logger } from '../../pkg/log/logger.js';
import { runJoin } from './app/join.js';
import { parseOptions, validateOptions } from './app/options.js';

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const errs = validateOptions(opts);
  if (errs.length > 0) {
    process.stderr.write(errs.map((e) => `Error: ${e}\n`).join('') + "\nRun 'join --help' for usage.\n");
    process.exit(1);
  }
  const logger = new Logger(opts.verbosity);
  try {
    const r = await runJoin(opts, logger);
    process.stdout.write(`This node has joined the cluster as ${r.username} (groups ${r.groups.join(', ')}); its kubeconfig is ${opts.kubeconfig}\n`);
    process.exit(0);
  } catch (e) {
    logger.error('join failed', { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
}

void main();
