// Child processes for the client tests (kubectl, python): every one is bounded in time, and what it
// printed is kept so an assertion can show the user's view of a failure.
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunOptions {
  /** Killed (SIGKILL) when still running after this long. */
  timeoutMs?: number;
  /** Written to stdin, which is then closed. */
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface ProcessResult {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The command line, exit status and both streams, for assertion messages. */
  describe(): string;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function describeRun(r: Omit<ProcessResult, 'describe'>): string {
  const status = r.timedOut ? 'timed out (killed)' : r.signal ? `killed by ${r.signal}` : `exit ${r.code}`;
  return `$ ${r.command}\n[${status}]\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

export function commandLine(cmd: string, args: readonly string[]): string {
  return [cmd, ...args].map(quote).join(' ');
}

/** Runs a command to completion, or kills it at the deadline; never rejects for a non-zero exit. */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<ProcessResult> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const command = commandLine(cmd, args);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let spawnError = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => { spawnError = `cannot run ${cmd}: ${e.message}\n`; });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const r = { command, code, signal, timedOut, stdout, stderr: spawnError + stderr };
      resolve({ ...r, describe: () => describeRun(r) });
    });
    child.stdin.on('error', () => { /* the child may exit before reading its input */ });
    child.stdin.end(opts.input ?? '');
  });
}

export interface BackgroundProcess {
  command: string;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout satisfies `done`; rejects, showing the output, at the deadline or on exit. */
  waitForOutput(done: (stdout: string) => boolean, timeoutMs: number, what: string): Promise<void>;
  /** Kills the process and waits for it to go. */
  stop(): Promise<void>;
}

/** Starts a long-running command (a `-w` watch); it is killed by stop() or at `maxLifetimeMs`. */
export function startBackground(cmd: string, args: readonly string[], opts: RunOptions & { maxLifetimeMs?: number } = {}): BackgroundProcess {
  const command = commandLine(cmd, args);
  const child: ChildProcess = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let exited = false;
  let status = '';
  const listeners = new Set<() => void>();
  const notify = () => { for (const l of [...listeners]) l(); };
  child.stdout!.setEncoding('utf8').on('data', (c: string) => { stdout += c; notify(); });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  child.on('error', (e) => { stderr += `cannot run ${cmd}: ${e.message}\n`; });
  const closed = new Promise<void>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      status = signal ? `killed by ${signal}` : `exit ${code}`;
      clearTimeout(lifetime);
      notify();
      resolve();
    });
  });
  const lifetime = setTimeout(() => child.kill('SIGKILL'), opts.maxLifetimeMs ?? 60_000);
  const show = () => `$ ${command}\n[${exited ? status : 'running'}]\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  return {
    command,
    stdout: () => stdout,
    stderr: () => stderr,
    waitForOutput: (done, timeoutMs, what) => new Promise<void>((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (done(stdout)) finish();
        else if (exited) finish(new Error(`${what}: the process ended first\n${show()}`));
      };
      const timer = setTimeout(() => finish(new Error(`${what}: not seen within ${timeoutMs} ms\n${show()}`)), timeoutMs);
      listeners.add(check);
      check();
    }),
    stop: async () => {
      if (!exited) child.kill('SIGKILL');
      await closed;
    },
  };
}

/** Stops a long-running child (a controller manager) with SIGTERM and waits for it to exit. */
export async function terminate(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}
