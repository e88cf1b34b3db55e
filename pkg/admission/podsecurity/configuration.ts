// The PodSecurity plug-in's configuration from --admission-control-config-file (upstream's
// PodSecurityConfiguration, group `pod-security.admission.config.<domain>` or upstream's `.k8s.io`,
// versions v1, v1beta1, v1alpha1): the policy of namespaces without labels, and the users,
// namespaces and runtime classes exempt from every check. Decoded strictly (an unknown field is an
// error), defaulted (an unset level is privileged, an unset version latest), then validated.
import type { ApiDomain } from '../../../api/domain.js';
import { duplicate, errorMessage, invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { isPlainObject } from '../../runtime/schema-node.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../registry/validation/names.js';
import { aggregateMessage } from '../errors.js';
import { PluginInitializationError } from '../registry.js';
import { parseLevel, parseVersion } from './level-version.js';
import { modes, type Policy } from './policy.js';

export interface Exemptions {
  usernames: string[];
  namespaces: string[];
  runtimeClasses: string[];
}

export interface PodSecurityConfiguration {
  defaults: Policy;
  exemptions: Exemptions;
}


const versions = ['v1', 'v1beta1', 'v1alpha1'];
const kind = 'PodSecurityConfiguration';
const defaultsFields = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'] as const;
const exemptionsFields = ['usernames', 'namespaces', 'runtimeClasses'] as const;

const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : v === true || v === false ? 'bool' : typeof v === 'object' ? 'object' : typeof v);
const typeError = (v: unknown, goStruct: string, path: string, goType: string) =>
  new Error(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${goStruct}.${path} of type ${goType}`);

/** The unknown fields of `obj` (prefixed with `at.`), as the strict decoder names them. */
function unknownFields(obj: Record<string, unknown>, known: readonly string[], at: string): string[] {
  return Object.keys(obj).filter((k) => !known.includes(k)).map((k) => `unknown field "${at}${k}"`);
}

/** The strings of a section's fields, '' for one unset; throws on a wrong type, as Go's decoder does. */
function section<F extends string>(raw: unknown, fields: readonly F[], name: string, goStruct: string, unknown: string[]): Record<F, unknown> {
  const out = {} as Record<F, unknown>;
  if (raw === undefined || raw === null) return out;
  if (!isPlainObject(raw)) throw typeError(raw, 'PodSecurityConfiguration', name, `v1.${goStruct}`);
  unknown.push(...unknownFields(raw, fields, `${name}.`));
  for (const f of fields) if (raw[f] !== undefined && raw[f] !== null) out[f] = raw[f];
  return out;
}

function stringField(v: unknown, goStruct: string, path: string): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') throw typeError(v, goStruct, path, 'string');
  return v;
}

function stringList(v: unknown, path: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw typeError(v, 'PodSecurityExemptions', path, '[]string');
  return v.map((s) => {
    if (typeof s !== 'string') throw typeError(s, 'PodSecurityExemptions', path, 'string');
    return s;
  });
}

/** Invalid entries and duplicates of an exemption list. */
function validateList(values: readonly string[], path: Path, why: (v: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  values.forEach((v, i) => {
    const problems = why(v);
    if (problems.length > 0) errs.push(invalid(path.index(i), v, problems.join(', ')));
    else if (seen.has(v)) errs.push(duplicate(path.index(i), v));
    else seen.add(v);
  });
  return errs;
}

const joined = (msgs: readonly string[]) => aggregateMessage(msgs.map((m) => new Error(m)));

/**
 * The configuration given in the admission configuration file; undefined means none (no defaults
 * beyond privileged, no exemptions). Throws an Error when it cannot be decoded, and a
 * PluginInitializationError when it says something invalid.
 */
export function loadPodSecurityConfiguration(configuration: unknown, domain: ApiDomain): PodSecurityConfiguration {
  let defaults: Record<(typeof defaultsFields)[number], string> = { enforce: '', 'enforce-version': '', audit: '', 'audit-version': '', warn: '', 'warn-version': '' };
  let exemptions: Exemptions = { usernames: [], namespaces: [], runtimeClasses: [] };
  if (configuration !== undefined && configuration !== null) {
    if (!isPlainObject(configuration)) throw new Error(`expected ${kind}, got ${jsonType(configuration)}`);
    const json = JSON.stringify(configuration);
    const apiVersion = typeof configuration['apiVersion'] === 'string' ? configuration['apiVersion'] : '';
    const k = typeof configuration['kind'] === 'string' ? configuration['kind'] : '';
    if (!k) throw new Error(`Object 'Kind' is missing in '${json}'`);
    if (!apiVersion) throw new Error(`Object 'apiVersion' is missing in '${json}'`);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
    if (![domain.group('pod-security.admission.config'), 'pod-security.admission.config.k8s.io'].includes(group) || !versions.includes(version) || k !== kind) {
      throw new Error(`no kind ${JSON.stringify(k)} is registered for version ${JSON.stringify(apiVersion)}`);
    }
    const unknown = unknownFields(configuration, ['apiVersion', 'kind', 'defaults', 'exemptions'], '');
    const d = section(configuration['defaults'], defaultsFields, 'defaults', 'PodSecurityDefaults', unknown);
    const e = section(configuration['exemptions'], exemptionsFields, 'exemptions', 'PodSecurityExemptions', unknown);
    if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.join(', ')}`);
    defaults = Object.fromEntries(defaultsFields.map((f) => [f, stringField(d[f], 'PodSecurityDefaults', `defaults.${f}`)])) as typeof defaults;
    exemptions = {
      usernames: stringList(e.usernames, 'exemptions.usernames'),
      namespaces: stringList(e.namespaces, 'exemptions.namespaces'),
      runtimeClasses: stringList(e.runtimeClasses, 'exemptions.runtimeClasses'),
    };
  }
  const parseErrors: string[] = [];
  const policy = {} as Policy;
  for (const mode of modes) {
    const l = parseLevel(defaults[mode] || 'privileged');
    const v = parseVersion(defaults[`${mode}-version`] || 'latest');
    if (l.error) parseErrors.push(`${mode}: ${l.error}`);
    if (v.error) parseErrors.push(`${mode}-version: ${v.error}`);
    policy[mode] = { level: l.level, version: v.version };
  }
  if (parseErrors.length > 0) throw new PluginInitializationError(`PodSecurity configuration error: ${joined(parseErrors)}`);
  const root = Path.root('exemptions');
  const errs = [
    ...validateList(exemptions.namespaces, root.child('namespaces'), isDNS1123Label),
    ...validateList(exemptions.runtimeClasses, root.child('runtimeClasses'), isDNS1123Subdomain),
    ...validateList(exemptions.usernames, root.child('usernames'), (u) => (u === '' ? ['username must not be empty'] : [])),
  ];
  if (errs.length > 0) throw new PluginInitializationError(`PodSecurity invalid: ${joined(errs.map(errorMessage))}`);
  return { defaults: policy, exemptions };
}
