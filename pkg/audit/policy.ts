// The audit Policy (--audit-policy-file): an ordered list of rules, the first one matching a
// request deciding its level and the stages left out; a request no rule matches is not audited.
// Read, validated and matched as upstream's policy reader, validation and checker do.
import { readFileSync } from 'node:fs';
import { parseYAML } from '../util/lazy-yaml.js';
import type { ApiDomain } from '../../api/domain.js';
import { auditAPIVersion, Levels, Stages, upstreamAuditAPIVersion, type Level, type Stage } from './types.js';

export interface GroupResources {
  /** '' is the core group. */
  group: string;
  /** `*`, `<resource>`, `<resource>/<subresource>`, `*\/<subresource>`, `<resource>/*`; empty matches every resource of the group. */
  resources: string[];
  resourceNames: string[];
}

export interface PolicyRule {
  level: Level;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  namespaces: string[];
  nonResourceURLs: string[];
  omitStages: Stage[];
  /** Unset: the policy's omitManagedFields decides. */
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** What a rule is matched against: the request's authorizer attributes (pkg/authorization's Attributes fit). */
export interface AuditAttributes {
  /** The authenticated user (not the impersonated one); undefined when authentication failed. */
  user: { name: string; groups: string[] } | undefined;
  verb: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
  isResourceRequest: boolean;
  path: string;
}

/** How one request is audited. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** A policy file kube-apiserver would refuse to start with. */
export class PolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}

/** Decides, per request, the level and omitted stages from the first matching rule. */
export class PolicyRuleEvaluator {
  private readonly rules: PolicyRule[];

  constructor(private readonly policy: Policy) {
    // The policy's omitted stages apply to every rule, as upstream folds them in once.
    this.rules = policy.rules.map((r) => ({ ...r, omitStages: unionStages(policy.omitStages, r.omitStages) }));
  }

  evaluate(attrs: AuditAttributes): RequestAuditConfig {
    for (const rule of this.rules) {
      if (ruleMatches(rule, attrs)) {
        return { level: rule.level, omitStages: rule.omitStages, omitManagedFields: rule.omitManagedFields ?? this.policy.omitManagedFields };
      }
    }
    return { level: 'None', omitStages: [...this.policy.omitStages], omitManagedFields: this.policy.omitManagedFields };
  }
}

function unionStages(...lists: Stage[][]): Stage[] {
  return [...new Set(lists.flat())];
}

function ruleMatches(r: PolicyRule, attrs: AuditAttributes): boolean {
  const user = attrs.user;
  if (r.users.length > 0 && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups.length > 0 && (!user || !user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(attrs.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return ruleMatchesResource(r, attrs);
  if (r.nonResourceURLs.length > 0) return !attrs.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

/** `*`, the path itself, or a prefix ending in `*`. */
function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function ruleMatchesResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // A cluster-scoped resource has the namespace ''.
  if (r.namespaces.length > 0 && !r.namespaces.includes(attrs.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const gr of r.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource && res.startsWith('*/') && res.slice(2) === subresource) return true;
      // `<resource>/*` covers the resource itself as well as its sub-resources, as upstream's does.
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

// ---- reading ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** Go's json error for a value of the wrong type. */
function typeError(field: string, v: unknown, want: string): PolicyError {
  return new PolicyError(`json: cannot unmarshal ${goType(v)} into Go struct field ${field} of type ${want}`);
}

function strings(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw typeError(field, v, '[]string');
  return v.map((s) => {
    if (typeof s !== 'string') throw typeError(field, s, 'string');
    return s;
  });
}

function str(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw typeError(field, v, 'string');
  return v;
}

function bool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw typeError(field, v, 'bool');
  return v;
}

const policyFields = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const ruleFields = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields']);
const groupResourceFields = new Set(['group', 'resources', 'resourceNames']);

/** Decodes the document's fields; unknown ones are collected (upstream then decodes leniently with a warning). */
function decodePolicy(doc: Record<string, unknown>, unknown: string[]): Policy {
  const note = (obj: Record<string, unknown>, known: Set<string>, at: string) => {
    for (const k of Object.keys(obj)) if (!known.has(k)) unknown.push(`unknown field "${at}${k}"`);
  };
  note(doc, policyFields, '');
  const rawRules = doc['rules'];
  if (rawRules !== undefined && rawRules !== null && !Array.isArray(rawRules)) throw typeError('Policy.rules', rawRules, '[]v1.PolicyRule');
  const rules = (rawRules ?? []).map((raw: unknown, i: number): PolicyRule => {
    if (!isObject(raw)) throw typeError('Policy.rules', raw, 'v1.PolicyRule');
    note(raw, ruleFields, `rules[${i}].`);
    const rawResources = raw['resources'];
    if (rawResources !== undefined && rawResources !== null && !Array.isArray(rawResources)) throw typeError('Policy.rules.resources', rawResources, '[]v1.GroupResources');
    const resources = (rawResources ?? []).map((gr: unknown, j: number): GroupResources => {
      if (!isObject(gr)) throw typeError('Policy.rules.resources', gr, 'v1.GroupResources');
      note(gr, groupResourceFields, `rules[${i}].resources[${j}].`);
      return {
        group: str(gr['group'], 'Policy.rules.resources.group'),
        resources: strings(gr['resources'], 'Policy.rules.resources.resources'),
        resourceNames: strings(gr['resourceNames'], 'Policy.rules.resources.resourceNames'),
      };
    });
    const omit = bool(raw['omitManagedFields'], 'Policy.rules.omitManagedFields');
    return {
      level: str(raw['level'], 'Policy.rules.level') as Level,
      users: strings(raw['users'], 'Policy.rules.users'),
      userGroups: strings(raw['userGroups'], 'Policy.rules.userGroups'),
      verbs: strings(raw['verbs'], 'Policy.rules.verbs'),
      resources,
      namespaces: strings(raw['namespaces'], 'Policy.rules.namespaces'),
      nonResourceURLs: strings(raw['nonResourceURLs'], 'Policy.rules.nonResourceURLs'),
      omitStages: strings(raw['omitStages'], 'Policy.rules.omitStages') as Stage[],
      ...(omit !== undefined ? { omitManagedFields: omit } : {}),
    };
  });
  return {
    rules,
    omitStages: strings(doc['omitStages'], 'Policy.omitStages') as Stage[],
    omitManagedFields: bool(doc['omitManagedFields'], 'Policy.omitManagedFields') ?? false,
  };
}

/** Go's %#v of a []string, as field.Invalid prints one. */
const goStrings = (v: string[]) => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateOmitStages(stages: string[], path: string): string[] {
  return stages.flatMap((s, i) => ((Stages as readonly string[]).includes(s) ? [] : [`${path}[${i}]: Invalid value: ${JSON.stringify(s)}: allowed stages are ${Stages.join(',')}`]));
}

/** Upstream's ValidatePolicy, with its field paths and messages. */
export function validatePolicy(p: Policy): string[] {
  const errs = validateOmitStages(p.omitStages, 'omitStages');
  p.rules.forEach((r, i) => {
    const at = `rules[${i}]`;
    if (r.level === ('' as Level)) errs.push(`${at}.level: Required value`);
    else if (!Levels.includes(r.level)) errs.push(`${at}.level: Unsupported value: ${JSON.stringify(r.level)}: supported values: ${Levels.map((l) => JSON.stringify(l)).join(', ')}`);
    r.nonResourceURLs.forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(`${at}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`);
      if (url !== '' && url.slice(0, -1).includes('*')) errs.push(`${at}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`);
    });
    for (const gr of r.resources) {
      if (gr.group !== '' && (gr.group.length > 253 || !dnsSubdomain.test(gr.group))) {
        errs.push(`${at}.resources.group: Invalid value: ${JSON.stringify(gr.group)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`);
      }
      if (gr.resourceNames.length > 0 && gr.resources.length === 0) {
        errs.push(`${at}.resources.resourceNames: Invalid value: ${goStrings(gr.resourceNames)}: using resourceNames requires at least one resource`);
      }
    }
    errs.push(...validateOmitStages(r.omitStages, `${at}.omitStages`));
    if (r.nonResourceURLs.length > 0 && (r.resources.length > 0 || r.namespaces.length > 0)) {
      errs.push(`${at}.nonResourceURLs: Invalid value: ${goStrings(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
    }
  });
  return errs;
}

export interface ParsedPolicy {
  policy: Policy;
  /** Unknown fields, ignored as upstream's lenient decoding ignores them; worth a warning. */
  warnings: string[];
}

/**
 * A Policy document (YAML or JSON) of `audit.<domain>/v1`, or upstream's `audit.k8s.io/v1`;
 * throws a PolicyError worded as upstream's loader words it.
 */
export function parsePolicy(text: string, domain: Pick<ApiDomain, 'group'>): ParsedPolicy {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (e) {
    throw new PolicyError(`failed decoding: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(doc)) throw new PolicyError(`failed decoding: the policy must be an object, not ${doc === null || doc === undefined ? 'empty' : goType(doc)}`);
  const apiVersion = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
  const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
  const json = JSON.stringify(doc);
  if (!kind) throw new PolicyError(`failed decoding: Object 'Kind' is missing in '${json}'`);
  if (!apiVersion) throw new PolicyError(`failed decoding: Object 'apiVersion' is missing in '${json}'`);
  if (kind !== 'Policy' || (apiVersion !== auditAPIVersion(domain) && apiVersion !== upstreamAuditAPIVersion)) {
    throw new PolicyError(`failed decoding: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const warnings: string[] = [];
  let policy: Policy;
  try {
    policy = decodePolicy(doc, warnings);
  } catch (e) {
    throw new PolicyError(`failed decoding: ${(e as Error).message}`);
  }
  const errs = validatePolicy(policy);
  if (errs.length === 1) throw new PolicyError(errs[0]!);
  if (errs.length > 1) throw new PolicyError(`[${errs.join(', ')}]`);
  if (policy.rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  return { policy, warnings };
}

/** Reads --audit-policy-file; the message of a refused file names it, as kube-apiserver's does. */
export function loadPolicyFile(path: string, domain: Pick<ApiDomain, 'group'>): ParsedPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyError(`loading audit policy file: failed to read file path ${JSON.stringify(path)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return parsePolicy(text, domain);
  } catch (e) {
    throw new PolicyError(`loading audit policy file: ${(e as Error).message}: from file ${path}`);
  }
}
