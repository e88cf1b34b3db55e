// Entry point of the controller manager: flags -> options -> run, until SIGTERM or SIGINT (which
// stop the controllers and release the leader lease) or until the lease is lost (exit 1, as
// upstream, so a supervisor restarts it as a standby).
import { runProcess } from '../internal/run-process.js';
import { parseOptions, validateOptions } from './app/options.js';
import { runControllerManager } from './app/server.js';

async function main(): Promise<void> {
  const { running: cm, logger, stopping } = await runProcess({
    name: 'controller-manager',
    what: 'controller manager',
    parse: parseOptions,
    validate: validateOptions,
    start: runControllerManager,
    stop: (m) => m.stop({ release: true }),
  });
  void cm.done.then((outcome) => {
    if (outcome === 'lost' && !stopping()) {
      logger.error('leaderelection lost');
      void cm.stop({ release: false }).finally(() => process.exit(1));
    }
  });
}

void main();
