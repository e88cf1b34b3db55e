// The chart in deploy/helm/orch as the deploy tests use it: the pinned helm 3 run in a private
// home, `helm template` parsed into objects, and accessors for what its containers run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { stockTools } from '../integration/framework/kubectl.js';
import { run, type ProcessResult } from '../integration/framework/process.js';

/** The repository's root (this file runs from _output/dist/test/deploy). */
const root = resolve(fileURLToPath(import.meta.url), '../../../../..');

/** The chart's directory. */
export const chartDir = join(root, 'deploy', 'helm', 'orch');

/** A values file kept in test/deploy/values, by name without .yaml. */
export const valuesFile = (name: string): string => join(root, 'test', 'deploy', 'values', `${name}.yaml`);

/** The helm 3 the chart is checked with (hack/install-layer-tools.sh pins it). */
export const helmBinary = stockTools.helm318;

/** A rendered Kubernetes object, as far as the tests read it. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  [field: string]: unknown;
}

/** A container of a rendered pod template. */
export interface RenderedContainer {
  name: string;
  image: string;
  command: string[];
  args: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  [field: string]: unknown;
}

/** Runs helm with its caches, configuration and data in a private home, so that no user setting leaks in. */
export async function helm(args: readonly string[], opts: { kubeconfig?: string; timeoutMs?: number } = {}): Promise<ProcessResult> {
  const home = mkdtempSync(join(tmpdir(), 'orch-helm-home-'));
  try {
    return await run(helmBinary, [...args, ...(opts.kubeconfig ? ['--kubeconfig', opts.kubeconfig] : [])], {
      timeoutMs: opts.timeoutMs ?? 90_000,
      env: {
        ...process.env, HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data'),
        NO_COLOR: '1', ...(opts.kubeconfig ? { KUBECONFIG: opts.kubeconfig } : {}),
      },
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The documents of YAML text that are objects (helm's empty ones dropped). */
export function parseObjects(text: string): RenderedObject[] {
  return parseAllDocuments(text).map((d) => d.toJS() as RenderedObject | null).filter((o): o is RenderedObject => o !== null && typeof o === 'object');
}

/** The chart rendered by `helm template <release> --namespace <namespace> <extra args>`: its text and objects; asserts helm succeeded. */
export async function renderChart(release: string, namespace: string, extra: readonly string[] = []): Promise<{ text: string; objects: RenderedObject[] }> {
  const r = await helm(['template', release, chartDir, '--namespace', namespace, ...extra]);
  assert.equal(r.code, 0, r.describe());
  return { text: r.stdout, objects: parseObjects(r.stdout) };
}

/** The object of a kind and name; asserts there is exactly one. */
export function objectNamed(objects: readonly RenderedObject[], kind: string, name: string): RenderedObject {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  assert.equal(found.length, 1, `one ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found[0]!;
}

/** The pod template's spec of a Deployment or StatefulSet. */
export function podSpec(workload: RenderedObject): { containers: RenderedContainer[]; volumes?: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[]; terminationGracePeriodSeconds?: number; affinity?: Record<string, unknown> } {
  const template = (workload.spec as { template: { spec: ReturnType<typeof podSpec> } }).template;
  return template.spec;
}

/** The value of each --name=value argument of a container, in order (a repeated flag gives several). */
export function flagValues(container: RenderedContainer, name: string): string[] {
  const prefix = `--${name}=`;
  return container.args.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length));
}

/** The single value of a flag; asserts it is given exactly once. */
export function flag(container: RenderedContainer, name: string): string {
  const values = flagValues(container, name);
  assert.equal(values.length, 1, `--${name} once in ${container.name}'s args: ${JSON.stringify(container.args)}`);
  return values[0]!;
}
