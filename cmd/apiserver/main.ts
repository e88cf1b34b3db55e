// Entry point of the API server: flags -> options -> run, until SIGTERM or SIGINT. With --workers
// above 1 this process supervises that many worker processes (app/workers.ts); each worker enters
// here too and runs as a full API server (app/workers-link.ts).
import cluster from 'node:cluster';
import { exitOnInvalid, runProcess } from '../internal/run-process.js';
import { parseOptions, validateOptions } from './app/options.js';

async function main(): Promise<void> {
  if (cluster.isWorker) {
    const { runWorker } = await import('./app/workers-link.js');
    await runWorker();
    return;
  }
  const opts = parseOptions(process.argv.slice(2));
  exitOnInvalid('apiserver', validateOptions(opts));
  if (opts.workers > 1) {
    const { runSupervisor } = await import('./app/workers.js');
    runSupervisor(opts);
    return;
  }
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
