// Entry point of a worker thread of `--workers N` (started by app/threads.ts): a full API server on
// the shared port, whose log lines carry `worker=<n>`. An exception nothing catches ends the
// thread, as it ends a Go server, and the main thread starts another in its place; an unhandled
// rejection is logged, as the single-threaded server logs it.
import { threadId, workerData } from 'node:worker_threads';
import { Logger } from '../../pkg/log/logger.js';
import { collectStartupGarbage } from '../internal/startup-garbage.js';
import { loadServerCode, parseOptions, validateOptions } from './app/options.js';
import { tellMain, ThreadLink, threadOptions } from './app/thread-link.js';
import type { ThreadData } from './app/threads-protocol.js';

async function main(): Promise<void> {
  const data = workerData as ThreadData;
  const opts = parseOptions(data.argv);
  // The main thread checked the flags but for what needs every kind loaded; it prints a refusal once.
  const errors = validateOptions(opts, await loadServerCode());
  if (errors.length > 0) {
    tellMain({ kind: 'invalid', errors });
    return;
  }
  const logger = new Logger(opts.verbosity, undefined, { worker: data.id });
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  const link = new ThreadLink(data, threadId, logger);
  // A stop (SIGTERM) that comes while this thread starts waits for the start: the thread may be
  // serving already, and drains as a started one does.
  let stop = () => {
    stop = () => undefined;
    stopAsked = true;
  };
  let stopAsked = false;
  link.onStop(() => stop());
  const { runAPIServer } = await import('./app/server.js');
  let server;
  try {
    server = await runAPIServer(threadOptions(opts, data.count), logger, link);
  } catch (e) {
    tellMain({ kind: 'failed', reason: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  const running = server;
  stop = () => {
    stop = () => undefined;
    logger.info('shutting down');
    running.stop().then(() => process.exit(0), (e: unknown) => {
      logger.error('shutdown failed', { err: String(e) });
      process.exit(1);
    });
  };
  if (stopAsked) {
    stop();
    return;
  }
  collectStartupGarbage();
  tellMain({ kind: 'started' });
}

void main();
