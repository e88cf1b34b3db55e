// The exec credential plug-in (spec 5.11, 2.9), as client-go's exec authenticator runs it: the
// command with its args and env plus ORCH_EXEC_INFO (an ExecCredential naming the version, whether
// stdin is interactive and, with provideClusterInfo, the cluster); its stdout must be an
// ExecCredential of the configured version with a token or a certificate and key. Credentials are
// cached until their expirationTimestamp, a 401 with them, or the process's exit.
import { spawn } from 'node:child_process';
import type { ExecConfig } from './exec-config.js';
import type { ExecClusterInfo } from './rest-config.js';

/** The environment variable upstream calls KUBERNETES_EXEC_INFO. */
export const execInfoEnv = 'ORCH_EXEC_INFO';

/** What a plug-in run gave. Holds secrets: never log it. */
export interface ExecCredentials {
  token?: string;
  certData?: string;
  keyData?: string;
  /** Milliseconds since the epoch; undefined means until a 401 or exit. */
  expiresAt?: number;
}

export interface ExecProviderOptions {
  now?: () => number;
  /** Whether stdin is a terminal; process.stdin.isTTY when absent. */
  stdinIsTerminal?: boolean;
  /** Where the plug-in's stderr goes (client-go passes it through to the user). */
  stderr?: 'inherit' | 'ignore';
}

/** The ExecCredential spec.cluster of provideClusterInfo, with client-go's JSON names. */
function clusterJSON(c: ExecClusterInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { server: c.server };
  if (c.tlsServerName) out['tls-server-name'] = c.tlsServerName;
  if (c.insecureSkipTLSVerify) out['insecure-skip-tls-verify'] = true;
  if (c.certificateAuthorityData) out['certificate-authority-data'] = Buffer.from(c.certificateAuthorityData).toString('base64');
  if (c.proxyURL) out['proxy-url'] = c.proxyURL;
  if (c.config !== undefined) out.config = c.config;
  return out;
}

/** Runs the plug-in when needed and caches what it printed; one run at a time however many requests wait. */
export class ExecCredentialProvider {
  private cached: ExecCredentials | undefined;
  private running: Promise<ExecCredentials> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly config: ExecConfig,
    private readonly cluster: ExecClusterInfo | undefined,
    private readonly options: ExecProviderOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The cached credentials while they have not expired, else those of a fresh run. */
  async credentials(): Promise<ExecCredentials> {
    const c = this.cached;
    if (c && (c.expiresAt === undefined || this.now() < c.expiresAt)) return c;
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    const fresh = await this.running;
    this.cached = fresh;
    return fresh;
  }

  /** A request with `used` was answered 401: forget them, so the next request runs the plug-in again (unless a newer run already replaced them). */
  unauthorized(used: ExecCredentials): void {
    if (this.cached === used) this.cached = undefined;
  }

  private interactive(): boolean {
    const terminal = this.options.stdinIsTerminal ?? process.stdin.isTTY === true;
    switch (this.config.interactiveMode) {
      case 'Never': return false;
      case 'Always':
        if (!terminal) throw new Error('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
      default: return terminal;
    }
  }

  private run(): Promise<ExecCredentials> {
    const cfg = this.config;
    let interactive: boolean;
    try {
      interactive = this.interactive();
    } catch (e) {
      return Promise.reject(e);
    }
    const info = {
      apiVersion: cfg.apiVersion,
      kind: 'ExecCredential',
      spec: { interactive, ...(cfg.provideClusterInfo && this.cluster ? { cluster: clusterJSON(this.cluster) } : {}) },
    };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of cfg.env) env[e.name] = e.value;
    env[execInfoEnv] = JSON.stringify(info);
    return new Promise((resolvePromise, reject) => {
      const child = spawn(cfg.command, cfg.args, {
        env,
        // The plug-in may prompt only when stdin is interactive; otherwise it gets no stdin at all.
        stdio: [interactive ? 'inherit' : 'ignore', 'pipe', this.options.stderr ?? 'inherit'],
      });
      const out: Buffer[] = [];
      child.stdout!.on('data', (b: Buffer) => out.push(b));
      child.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') {
          reject(new Error(`exec: executable ${cfg.command} not found${cfg.installHint ? `\n\n${cfg.installHint}` : ''}`));
        } else {
          reject(new Error(`exec: ${e.message}`));
        }
      });
      child.on('close', (code) => {
        if (code !== 0) {
          reject(new Error(`exec: executable ${cfg.command} failed with exit code ${code ?? -1}`));
          return;
        }
        try {
          resolvePromise(this.parse(Buffer.concat(out).toString('utf8')));
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /** The plug-in's stdout, checked as client-go checks it. */
  private parse(stdout: string): ExecCredentials {
    let doc: unknown;
    try {
      doc = JSON.parse(stdout);
    } catch (e) {
      throw new Error(`decoding stdout: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('decoding stdout: not an ExecCredential object');
    const cred = doc as { apiVersion?: unknown; kind?: unknown; status?: unknown };
    if (cred.kind !== 'ExecCredential') throw new Error(`decoding stdout: the kind is ${JSON.stringify(cred.kind)}, not ExecCredential`);
    if (cred.apiVersion !== this.config.apiVersion) {
      throw new Error(`exec plugin is configured to use API version ${this.config.apiVersion}, plugin returned version ${String(cred.apiVersion)}`);
    }
    const status = cred.status;
    if (status === null || status === undefined || typeof status !== 'object') throw new Error("exec plugin didn't return a status field");
    const s = status as Record<string, unknown>;
    const text = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');
    const token = text('token');
    const certData = text('clientCertificateData');
    const keyData = text('clientKeyData');
    if (!token && !certData && !keyData) throw new Error("exec plugin didn't return a token or cert/key pair");
    if (!certData !== !keyData) throw new Error('exec plugin returned only certificate or key, not both');
    const out: ExecCredentials = {};
    if (token) out.token = token;
    if (certData) {
      out.certData = certData;
      out.keyData = keyData;
    }
    const exp = s.expirationTimestamp;
    if (exp !== undefined && exp !== null) {
      const at = typeof exp === 'string' ? Date.parse(exp) : NaN;
      if (Number.isNaN(at)) throw new Error(`decoding stdout: invalid expirationTimestamp ${JSON.stringify(exp)}`);
      out.expiresAt = at;
    }
    return out;
  }
}
