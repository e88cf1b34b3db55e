// DefaultTolerationSeconds (upstream plugin/pkg/admission/defaulttolerationseconds): every pod
// that does not already tolerate them gets NoExecute tolerations of the not-ready and unreachable
// node taints, so it is evicted from a failed node only after a grace period (300 s by default).
// Upstream runs it on pod creates and updates alike; an update only ever adds the missing ones.
import type { Toleration } from '../../../api/core/v1/toleration.js';
import { handlesOperations, type Attributes, type MutationInterface, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'DefaultTolerationSeconds';

/** Upstream's default of --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
export const defaultTolerationSeconds = 300;

/**
 * The plug-in's configuration. Upstream takes these numbers from kube-apiserver's flags
 * `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`, not from
 * the admission configuration file; the server passes the flag values here as the plug-in's
 * configuration. Either may be left out (300).
 */
export interface DefaultTolerationSecondsConfig {
  notReadyTolerationSeconds?: number;
  unreachableTolerationSeconds?: number;
}

type PodLike = { spec?: { tolerations?: Toleration[] } };

/** Reads the configuration; throws on numbers that are not integers. */
export function parseConfig(configuration: unknown): Required<DefaultTolerationSecondsConfig> {
  const out = { notReadyTolerationSeconds: defaultTolerationSeconds, unreachableTolerationSeconds: defaultTolerationSeconds };
  if (configuration === undefined || configuration === null) return out;
  if (typeof configuration !== 'object' || Array.isArray(configuration)) throw new Error('configuration must be an object');
  const c = configuration as Record<string, unknown>;
  for (const field of ['notReadyTolerationSeconds', 'unreachableTolerationSeconds'] as const) {
    const v = c[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`${field} must be an integer, not ${JSON.stringify(v)}`);
    out[field] = v;
  }
  return out;
}

/** Whether `t` tolerates the NoExecute taint `key` (an empty key or effect matches every one). */
function toleratesNoExecute(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

export class DefaultTolerationSeconds implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  private readonly notReady: Toleration;
  private readonly unreachable: Toleration;

  constructor(deps: PluginDeps, config: Required<DefaultTolerationSecondsConfig>) {
    this.notReady = { key: deps.domain.key('not-ready', 'node'), operator: 'Exists', effect: 'NoExecute', tolerationSeconds: config.notReadyTolerationSeconds };
    this.unreachable = { key: deps.domain.key('unreachable', 'node'), operator: 'Exists', effect: 'NoExecute', tolerationSeconds: config.unreachableTolerationSeconds };
  }

  admit(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return;
    const pod = attrs.object as PodLike | undefined;
    if (!pod) return;
    const tolerations = pod.spec?.tolerations ?? [];
    const add: Toleration[] = [];
    for (const wanted of [this.notReady, this.unreachable]) {
      if (!tolerations.some((t) => toleratesNoExecute(t, wanted.key!))) add.push({ ...wanted });
    }
    if (add.length === 0) return;
    pod.spec ??= {};
    pod.spec.tolerations = [...tolerations, ...add];
  }
}

export const defaultTolerationSecondsFactory: PluginFactory = (configuration, deps) => new DefaultTolerationSeconds(deps, parseConfig(configuration));
