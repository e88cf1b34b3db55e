// Entry point of the API server: flags -> options -> run, until SIGTERM or SIGINT.
import { runProcess } from '../internal/run-process.js';
import { parseOptions, validateOptions } from './app/options.js';
import { runAPIServer } from './app/server.js';

void runProcess({
  name: 'apiserver',
  what: 'API server',
  parse: parseOptions,
  validate: validateOptions,
  start: runAPIServer,
  stop: (server) => server.stop(),
});
