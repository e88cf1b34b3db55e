// Entry point of the API server: flags -> options -> run, until SIGTERM or SIGINT.
import { Logger } from '../../pkg/log/logger.js';
import { parseOptions, validateOptions } from './app/options.js';
import { runAPIServer } from './app/server.js';

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const errs = validateOptions(opts);
  if (errs.length > 0) {
    process.stderr.write(errs.map((e) => `Error: ${e}\n`).join('') + "\nRun 'apiserver --help' for usage.\n");
    process.exit(1);
  }
  const logger = new Logger(opts.verbosity);
  process.on('uncaughtException', (err) => logger.error('uncaught exception', { err: err.stack ?? err.message }));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  let server;
  try {
    server = await runAPIServer(opts, logger);
  } catch (e) {
    logger.error('the API server could not start', { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    void server.stop().then(() => process.exit(0), (e: unknown) => {
      logger.error('shutdown failed', { err: String(e) });
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
