// Entry point of the API server: flags -> options -> run, until SIGTERM or SIGINT. With --workers
// above 1 this thread starts that many worker threads (app/threads.ts), each a full API server on
// the shared port (worker-thread.ts), and serves no API itself.
//
// Everything beyond the flags is imported on the path that needs it: the main thread of --workers
// serves no API, and what it never loads (every kind's schema, the handlers, the storage) costs it
// no memory.
import { limitHeapGrowth } from '../internal/heap-growth.js';
import { exitOnInvalid, runProcess } from '../internal/run-process.js';
import { collectStartupGarbage } from '../internal/startup-garbage.js';
import { loadServerCode, parseOptions, validateOptions } from './app/options.js';

async function main(): Promise<void> {
  // V8's flags are the process's: the worker threads' heaps grow as this one's.
  limitHeapGrowth();
  const argv = process.argv.slice(2);
  const opts = parseOptions(argv);
  if (opts.workers > 1) {
    // The keys of --runtime-config and the plug-ins' code are checked by the threads, which load them anyway.
    exitOnInvalid('apiserver', validateOptions(opts));
    const { runThreads } = await import('./app/threads.js');
    runThreads(opts, argv);
    return;
  }
  exitOnInvalid('apiserver', validateOptions(opts, await loadServerCode()));
  const { runAPIServer } = await import('./app/server.js');
  await runProcess({
    name: 'apiserver',
    what: 'API server',
    parse: () => opts,
    validate: () => [],
    start: async (o, logger) => {
      const server = await runAPIServer(o, logger);
      collectStartupGarbage();
      return server;
    },
    stop: (server) => server.stop(),
  });
}

void main();
