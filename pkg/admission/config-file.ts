// --admission-control-config-file: an AdmissionConfiguration naming, per plug-in, its configuration
// inline or in a file of its own. Read once at start; a plug-in asks for its configuration by name.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseYAML } from '../util/lazy-yaml.js';

/** One `plugins[]` entry, its path made absolute against the configuration file's directory. */
export interface AdmissionPluginConfiguration {
  name: string;
  path?: string;
  /** The inline configuration object; when present it is used instead of `path`. */
  configuration?: unknown;
}

/** A refused configuration file; kube-apiserver stops at start with this message. */
export class AdmissionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdmissionConfigError';
  }
}

/** The versions of AdmissionConfiguration upstream registers. */
const versions = ['v1', 'v1alpha1'];
/** Upstream's name of the configuration group, accepted beside ours so stock files keep working. */
const upstreamConfigDomain = 'k8s.io';
/** Plug-ins whose configuration files predate AdmissionConfiguration; such a file configures them directly. */
const legacyPlugins = ['ImagePolicyWebhook', 'PodNodeSelector'];

export class AdmissionConfiguration {
  constructor(readonly plugins: readonly AdmissionPluginConfiguration[]) {}

  /**
   * The configuration of `plugin`: the inline object, else its file's content (YAML or JSON) read
   * now, else undefined. The first entry naming the plug-in counts, as upstream.
   */
  configFor(plugin: string, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): unknown {
    const entry = this.plugins.find((p) => p.name === plugin);
    if (!entry) return undefined;
    if (entry.configuration !== undefined && entry.configuration !== null) return entry.configuration;
    if (!entry.path) return undefined;
    let text: string;
    try {
      text = readFile(entry.path);
    } catch (e) {
      throw new AdmissionConfigError(`couldn't open admission plugin configuration ${entry.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    return parseYaml(text, `admission plugin configuration ${entry.path}`);
  }

  /** The configuration of each of `enabled` that has one, read in order. */
  configurations(enabled: readonly string[], readFile?: (path: string) => string): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const name of enabled) {
      const cfg = this.configFor(name, readFile);
      if (cfg !== undefined) out.set(name, cfg);
    }
    return out;
  }
}

function parseYaml(text: string, what: string): unknown {
  try {
    return parseYAML(text);
  } catch (e) {
    throw new AdmissionConfigError(`couldn't parse ${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ReadAdmissionConfigurationOptions {
  /** The platform domain (`orch.io`): the file's group is `apiserver.config.<domain>`. */
  domain: string;
  /** The plug-ins that will run; a legacy file configures those of them that read it. */
  enabledPlugins: readonly string[];
  readFile?: (path: string) => string;
}

/**
 * Reads the --admission-control-config-file at `file` ('' means none: no plug-in is configured).
 * Accepts kind AdmissionConfiguration of group `apiserver.config.<domain>` or upstream's
 * `apiserver.config.k8s.io`, versions v1 and v1alpha1. A file without a kind or of an unknown
 * group/version is still taken, as upstream does, when it is one of the two legacy plug-in
 * configuration formats; it then configures ImagePolicyWebhook and PodNodeSelector, if enabled.
 */
export function readAdmissionConfiguration(file: string, opts: ReadAdmissionConfigurationOptions): AdmissionConfiguration {
  if (file === '') return new AdmissionConfiguration([]);
  const readFile = opts.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  let text: string;
  try {
    text = readFile(file);
  } catch (e) {
    throw new AdmissionConfigError(`unable to read admission control configuration from ${JSON.stringify(file)} [${e instanceof Error ? e.message : String(e)}]`);
  }
  const doc = parseYaml(text, `admission control configuration ${JSON.stringify(file)}`);
  if (!isObject(doc)) {
    throw new AdmissionConfigError(`admission control configuration ${JSON.stringify(file)} must be an object, not ${doc === null ? 'null' : Array.isArray(doc) ? 'a list' : typeof doc}`);
  }
  const groups = new Set([`apiserver.config.${opts.domain}`, `apiserver.config.${upstreamConfigDomain}`]);
  const apiVersion = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
  const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  const registered = groups.has(group) && versions.includes(version) && kind === 'AdmissionConfiguration';
  if (!registered) {
    // Upstream falls back to the legacy formats only when the kind or version is missing or unknown.
    if ('imagePolicy' in doc || 'podNodeSelectorPluginConfig' in doc) {
      return new AdmissionConfiguration(opts.enabledPlugins.filter((p) => legacyPlugins.includes(p)).map((name) => ({ name, path: file })));
    }
    const json = JSON.stringify(doc);
    if (!kind) throw new AdmissionConfigError(`Object 'Kind' is missing in '${json}'`);
    if (!apiVersion) throw new AdmissionConfigError(`Object 'apiVersion' is missing in '${json}'`);
    throw new AdmissionConfigError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in admission control configuration ${JSON.stringify(file)}`);
  }
  const raw = doc['plugins'];
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    throw new AdmissionConfigError(`admission control configuration ${JSON.stringify(file)}: plugins must be a list`);
  }
  const base = dirname(file);
  const plugins = (raw ?? []).map((entry: unknown, i: number): AdmissionPluginConfiguration => {
    const at = `admission control configuration ${JSON.stringify(file)}: plugins[${i}]`;
    if (!isObject(entry)) throw new AdmissionConfigError(`${at} must be an object`);
    const { name, path, configuration } = entry;
    if (name !== undefined && typeof name !== 'string') throw new AdmissionConfigError(`${at}.name must be a string`);
    if (path !== undefined && path !== null && typeof path !== 'string') throw new AdmissionConfigError(`${at}.path must be a string`);
    const out: AdmissionPluginConfiguration = { name: name ?? '' };
    if (path) out.path = isAbsolute(path) ? path : resolve(base, path);
    if (configuration !== undefined && configuration !== null) out.configuration = configuration;
    return out;
  });
  return new AdmissionConfiguration(plugins);
}
