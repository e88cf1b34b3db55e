// Entry point of the API server: flags -> options -> run, until SIGTERM or SIGINT. With --workers
// above 1 this process supervises that many worker processes (app/workers.ts); each worker enters
// here too and runs as a full API server (app/workers-link.ts).
//
// Everything beyond the flags is imported on the path that needs it: the supervisor serves no API,
// and what it never loads (every kind's schema, the handlers, the storage) costs it no memory.
import cluster from 'node:cluster';
import { limitHeapGrowth } from '../internal/heap-growth.js';
import { exitOnInvalid, runProcess } from '../internal/run-process.js';
import { loadServerCode, parseOptions, validateOptions } from './app/options.js';

async function main(): Promise<void> {
  limitHeapGrowth();
  if (cluster.isWorker) {
    const { runWorker } = await import('./app/workers-link.js');
    await runWorker();
    return;
  }
  const opts = parseOptions(process.argv.slice(2));
  if (opts.workers > 1) {
    // The keys of --runtime-config and the plug-ins' code are checked by the workers, which load them anyway.
    exitOnInvalid('apiserver', validateOptions(opts));
    const { runSupervisor } = await import('./app/workers.js');
    runSupervisor(opts);
    return;
  }
  exitOnInvalid('apiserver', validateOptions(opts, await loadServerCode()));
  const { runAPIServer } = await import('./app/server.js');
  await runProcess({
    name: 'apiserver',
    what: 'API server',
    parse: () => opts,
    validate: () => [],
    start: runAPIServer,
    stop: (server) => server.stop(),
  });
}

void main();
