// The PodNodeSelector configuration: upstream 1.30 has no versioned kind for it, only a document
// (the --admission-control-config-file itself, or a plug-in's configuration in an
// AdmissionConfiguration) holding
//
//   podNodeSelectorPluginConfig:
//     clusterDefaultNodeSelector: <selector>   # for namespaces without the annotation
//     <namespace>: <selector>                  # the labels that namespace's pods may select
//
// apiVersion and kind are ignored and the key is matched without regard to case, as Go's decoder
// does. Upstream skips a document it cannot decode and parses the selectors on each request (a bad
// one fails every pod); here both are refused at start, naming what is wrong.
import { selectorToLabelsMap, type LabelsMap } from './labels-map.js';

export interface PodNodeSelectorConfig {
  /** The node selector of pods in namespaces that do not annotate one. */
  clusterDefault: LabelsMap;
  /** Per namespace, the only node labels its pods may select. */
  whitelists: ReadonlyMap<string, LabelsMap>;
}

const clusterDefaultKey = 'clusterDefaultNodeSelector';
const configKey = 'podnodeselectorpluginconfig';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the configuration (undefined: no cluster default, no whitelists); throws on a malformed one. */
export function loadConfiguration(configuration: unknown): PodNodeSelectorConfig {
  const out = { clusterDefault: {}, whitelists: new Map<string, LabelsMap>() };
  if (configuration === undefined || configuration === null) return out;
  if (!isObject(configuration)) throw new Error('configuration must be an object holding podNodeSelectorPluginConfig');
  // Go matches a field's name case-insensitively when no key matches exactly.
  const key = Object.keys(configuration).find((k) => k === 'podNodeSelectorPluginConfig') ?? Object.keys(configuration).find((k) => k.toLowerCase() === configKey);
  const raw = key === undefined ? undefined : configuration[key];
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) throw new Error('podNodeSelectorPluginConfig must be a map of selectors');
  for (const [name, value] of Object.entries(raw)) {
    if (value !== null && typeof value !== 'string') throw new Error(`podNodeSelectorPluginConfig.${name} must be a string`);
    let labels: LabelsMap;
    try {
      labels = selectorToLabelsMap(value ?? '');
    } catch (e) {
      throw new Error(`podNodeSelectorPluginConfig.${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (name === clusterDefaultKey) out.clusterDefault = labels;
    else out.whitelists.set(name, labels);
  }
  return out;
}
