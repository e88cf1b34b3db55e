// Entry point of the controller manager: flags -> options -> run, until SIGTERM or SIGINT (which
// stop the controllers and release the leader lease) or until the lease is lost (exit 1, as
// upstream, so a supervisor restarts it as a standby).
import { Logger } from '../../pkg/log/logger.js';
import { parseOptions, validateOptions } from './app/options.js';
import { runControllerManager, type RunningControllerManager } from './app/server.js';

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const errs = validateOptions(opts);
  if (errs.length > 0) {
    process.stderr.write(errs.map((e) => `Error: ${e}\n`).join('') + "\nRun 'controller-manager --help' for usage.\n");
    process.exit(1);
  }
  const logger = new Logger(opts.verbosity);
  process.on('uncaughtException', (err) => logger.error('uncaught exception', { err: err.stack ?? err.message }));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  let cm: RunningControllerManager;
  try {
    cm = await runControllerManager(opts, logger);
  } catch (e) {
    logger.error('the controller manager could not start', { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    void cm.stop({ release: true }).then(() => process.exit(0), (e: unknown) => {
      logger.error('shutdown failed', { err: String(e) });
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  void cm.done.then((outcome) => {
    if (outcome === 'lost' && !stopping) {
      logger.error('leaderelection lost');
      void cm.stop({ release: false }).finally(() => process.exit(1));
    }
  });
}

void main();
