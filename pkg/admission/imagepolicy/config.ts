// The ImagePolicyWebhook configuration: upstream 1.30 reads a document (the
// --admission-control-config-file itself, or the plug-in's configuration in an
// AdmissionConfiguration) holding
//
//   imagePolicy:
//     kubeConfigFile: /path/to/kubeconfig   # the webhook and the server's credentials for it
//     allowTTL: 50        # seconds an allowed answer is cached (0: 5 minutes, -1: not cached)
//     denyTTL: 50         # seconds a denial is cached (0: 30 seconds, -1: not cached)
//     retryBackoff: 500   # milliseconds before the first retry (0: 500, -1: none)
//     defaultAllow: true  # admit pods when the webhook cannot be asked
//
// apiVersion and kind are ignored, as upstream's decoder ignores them (later upstream releases
// name this kind ImagePolicyWebhookConfiguration and keep the same `imagePolicy` body).
import { formatDuration } from '../../util/duration.js';

export interface ImagePolicyConfig {
  kubeConfigFile: string;
  allowTTLMs: number;
  denyTTLMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

const ms = 1_000_000n;
const second = 1000n * ms;
const minute = 60n * second;

interface Bounds {
  /** What upstream calls the setting in its messages. */
  name: string;
  /** Nanoseconds in one unit of the configured number. */
  scale: bigint;
  min: bigint;
  max: bigint;
  /** Used for 0. */
  fallback: bigint;
}

const allowTTL: Bounds = { name: 'allowTTL', scale: second, min: second, max: 30n * minute, fallback: 5n * minute };
const denyTTL: Bounds = { name: 'denyTTL', scale: second, min: second, max: 30n * minute, fallback: 30n * second };
const retryBackoff: Bounds = { name: 'retryBackoff', scale: ms, min: 1n, max: 5n * minute, fallback: 500n * ms };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Upstream's normalizeConfigDuration in milliseconds: -1 disables (0), 0 takes the default, other
 * values must lie in (min, max] once scaled (so allowTTL: 1 is refused, as upstream refuses it).
 */
function duration(raw: unknown, b: Bounds): number {
  if (raw === undefined || raw === null) raw = 0;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) {
    throw new Error(`json: cannot unmarshal ${typeof raw === 'number' ? `number ${raw}` : typeof raw} into Go struct field imagePolicyWebhookConfig.imagePolicy.${b.name} of type time.Duration`);
  }
  if (raw === -1) return 0;
  const ns = raw === 0 ? b.fallback : BigInt(raw) * b.scale;
  if (ns <= b.min || ns > b.max) throw new Error(`valid value is between ${formatDuration(b.min)} and ${formatDuration(b.max)}, got ${formatDuration(ns)}`);
  return Number(ns / ms);
}

/** Reads the configuration; throws upstream's errors (none given is refused: the plug-in needs its webhook). */
export function loadConfiguration(configuration: unknown): ImagePolicyConfig {
  if (configuration === undefined || configuration === null) throw new Error('no config specified');
  if (!isObject(configuration)) throw new Error('configuration must be an object holding imagePolicy');
  const raw = configuration['imagePolicy'] ?? {};
  if (!isObject(raw)) throw new Error('imagePolicy must be an object');
  const file = raw['kubeConfigFile'] ?? '';
  if (typeof file !== 'string') throw new Error('imagePolicy.kubeConfigFile must be a string');
  if (file === '') throw new Error('imagePolicy.kubeConfigFile is required: the kubeconfig naming the image policy webhook');
  const defaultAllow = raw['defaultAllow'] ?? false;
  if (typeof defaultAllow !== 'boolean') throw new Error('imagePolicy.defaultAllow must be true or false');
  return {
    kubeConfigFile: file,
    retryBackoffMs: duration(raw['retryBackoff'], retryBackoff),
    allowTTLMs: duration(raw['allowTTL'], allowTTL),
    denyTTLMs: duration(raw['denyTTL'], denyTTL),
    defaultAllow,
  };
}
