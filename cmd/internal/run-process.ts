// What both binaries do around their run function: flags -> options, refuse bad options with
// `Run '<name> --help' for usage.`, log what escapes, start (exit 1 when that fails), and stop
// once on SIGTERM or SIGINT (exit 0, or 1 when stopping fails).
import { Logger } from '../../pkg/log/logger.js';

export interface ProcessSpec<O extends { verbosity: number }, R> {
  /** The binary's name, as `--help` is suggested. */
  name: string;
  /** What is logged when start fails: `the <what> could not start`. */
  what: string;
  parse(argv: string[]): O;
  validate(opts: O): string[];
  start(opts: O, logger: Logger): Promise<R>;
  stop(running: R): Promise<void>;
}

/** Every complaint about the options and the hint to --help, as the binary prints them. */
export function invalidFlagsText(name: string, errs: string[]): string {
  return errs.map((e) => `Error: ${e}\n`).join('') + `\nRun '${name} --help' for usage.\n`;
}

/** Stops the binary with every complaint about its options and the hint to --help. */
export function exitOnInvalid(name: string, errs: string[]): void {
  if (errs.length === 0) return;
  process.stderr.write(invalidFlagsText(name, errs));
  process.exit(1);
}

/** Runs the process; resolves with what started (and its logger) once it is up. */
export async function runProcess<O extends { verbosity: number }, R>(spec: ProcessSpec<O, R>): Promise<{ running: R; logger: Logger; stopping(): boolean }> {
  const opts = spec.parse(process.argv.slice(2));
  exitOnInvalid(spec.name, spec.validate(opts));
  // When whoever reads our output goes away (a killed supervisor or shell), every write fails with
  // EPIPE; unhandled, each failure would be logged as an uncaught exception, itself a failing write,
  // and the process would spin. Nobody can hear us any more: drop the output and keep serving.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const logger = new Logger(opts.verbosity);
  process.on('uncaughtException', (err) => logger.error('uncaught exception', { err: err.stack ?? err.message }));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  let running: R;
  try {
    running = await spec.start(opts, logger);
  } catch (e) {
    logger.error(`the ${spec.what} could not start`, { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    void spec.stop(running).then(() => process.exit(0), (e: unknown) => {
      logger.error('shutdown failed', { err: String(e) });
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return { running, logger, stopping: () => stopping };
}
