// The admission flags of the API server, named and defaulted as kube-apiserver's are.
import type { Argv } from 'yargs';
import { readAdmissionConfiguration } from '../../../pkg/admission/config-file.js';
import { AllOrderedPlugins, DefaultOnPlugins, enabledAdmissionPlugins, parsePluginList, validateAdmissionPluginFlags, type AdmissionPluginFlags } from '../../../pkg/admission/plugins.js';

const group = 'Admission:';

export interface AdmissionOptions {
  plugins: AdmissionPluginFlags;
  /** --admission-control-config-file; '' for none. */
  configFile: string;
  /** --default-not-ready-toleration-seconds */
  defaultNotReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds */
  defaultUnreachableTolerationSeconds: number;
}

/** Declares the flags on a yargs parser. */
export function admissionFlags<T>(y: Argv<T>) {
  const order = AllOrderedPlugins.join(', ');
  const onByDefault = AllOrderedPlugins.filter((p) => DefaultOnPlugins.has(p)).join(', ');
  return y
    .option('enable-admission-plugins', { type: 'string', array: true, describe: `admission plugins that should be enabled in addition to default enabled ones (${onByDefault}). Comma-delimited list of admission plugins: ${order}. The order of plugins in this flag does not matter.`, group })
    .option('disable-admission-plugins', { type: 'string', array: true, describe: `admission plugins that should be disabled although they are in the default enabled plugins list (${onByDefault}). Comma-delimited list of admission plugins: ${order}. The order of plugins in this flag does not matter.`, group })
    .option('admission-control', { type: 'string', array: true, describe: 'Admission is divided into two phases. In the first phase, only mutating admission plugins run. In the second phase, only validating admission plugins run. The names in this list run in the fixed order of the server. DEPRECATED: use --enable-admission-plugins or --disable-admission-plugins instead.', group })
    .option('admission-control-config-file', { type: 'string', default: '', describe: 'File with admission control configuration.', group })
    .option('default-not-ready-toleration-seconds', { type: 'number', default: 300, describe: 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.', group })
    .option('default-unreachable-toleration-seconds', { type: 'number', default: 300, describe: 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.', group });
}

const list = (v: unknown): string[] | undefined => (v === undefined ? undefined : parsePluginList((Array.isArray(v) ? v : [v]).map(String)));

/** The options from parsed flags. */
export function admissionOptionsFrom(p: Record<string, unknown>): AdmissionOptions {
  const plugins: AdmissionPluginFlags = {};
  const enable = list(p['enable-admission-plugins']);
  const disable = list(p['disable-admission-plugins']);
  const control = list(p['admission-control']);
  if (enable !== undefined) plugins.enable = enable;
  if (disable !== undefined) plugins.disable = disable;
  if (control !== undefined) plugins.admissionControl = control;
  return {
    plugins,
    configFile: String(p['admission-control-config-file'] ?? ''),
    defaultNotReadyTolerationSeconds: Number(p['default-not-ready-toleration-seconds'] ?? 300),
    defaultUnreachableTolerationSeconds: Number(p['default-unreachable-toleration-seconds'] ?? 300),
  };
}

/** The options with no admission flag given: upstream's recommended plug-ins. */
export function defaultAdmissionOptions(): AdmissionOptions {
  return { plugins: {}, configFile: '', defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 };
}

/**
 * Problems with the admission flags, worded as kube-apiserver words them; with `runnable` (the
 * registered plug-ins) a plug-in left on that the server cannot run is one.
 */
export function validateAdmissionOptions(o: AdmissionOptions, domain: string, runnable?: readonly string[]): string[] {
  const errs = validateAdmissionPluginFlags(o.plugins, runnable);
  if (errs.length === 0) {
    // The file is read again when the chain is built; a broken one stops the server before anything starts.
    try {
      readAdmissionConfiguration(o.configFile, { domain, enabledPlugins: enabledAdmissionPlugins(o.plugins) });
    } catch (e) {
      errs.push(e instanceof Error ? e.message : String(e));
    }
  }
  for (const [flag, v] of [['--default-not-ready-toleration-seconds', o.defaultNotReadyTolerationSeconds], ['--default-unreachable-toleration-seconds', o.defaultUnreachableTolerationSeconds]] as const) {
    if (!Number.isInteger(v) || v < 0) errs.push(`${flag} must be a non-negative integer`);
  }
  return errs;
}
