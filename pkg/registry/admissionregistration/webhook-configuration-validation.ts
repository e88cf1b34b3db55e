// Rules of ValidatingWebhookConfiguration and MutatingWebhookConfiguration (upstream
// ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration and their Update
// variants, admissionregistration/v1). Enumerations (operations, scope, failurePolicy,
// matchPolicy, reinvocationPolicy) are refused by the schema; everything else is checked here.
// An update is held to the rules the stored object already met: a configuration stored before a
// rule existed (side effects Some/Unknown, only unknown review versions, duplicate webhook names,
// odd selector values, match conditions) can still be edited as long as it keeps breaking the
// rule the same way.
import { isDeepStrictEqual } from 'node:util';
import {
  NoSideEffectClasses, SideEffectClasses, type MatchCondition, type MutatingWebhook, type MutatingWebhookConfiguration,
  type RuleWithOperations, type ServiceReference, type ValidatingWebhookConfiguration, type Webhook,
} from '../../../api/admissionregistration/v1/webhook-configuration.js';
import { parseGoURL } from '../../util/go-url.js';
import { duplicate, invalid, notSupported, required, tooMany, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from '../validation/names.js';
import { matchConditionCompileError } from '../../cel/admission/composition.js';

/** AdmissionReview versions this server can send, preferred first. */
export const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'] as const;

const maxMatchConditions = 64;

/** Which rules apply; a create applies all, an update only those the stored object met. */
interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  ignoreMatchConditions: boolean;
}

const createOptions: Options = {
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  ignoreMatchConditions: false,
};

const hasWildcard = (values: readonly string[]) => values.includes('*');

/** upstream IsFullyQualifiedName: a DNS subdomain of at least three labels. */
function validateFullyQualifiedName(name: string, path: Path): FieldError[] {
  if (name === '') return [required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

// Resources with the sub-resource wildcards (a lone star, star-slash-star, x-slash-star,
// star-slash-x) and which of them may stand together.
function validateResources(resources: readonly string[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSubresource = new Set<string>(); // resources listed as x/<star>
  const subresourceOfWildcard = new Set<string>(); // sub-resources listed as <star>/x
  let doubleWildcard = false;
  let singleWildcard = false;
  let resourceWithoutSubresource = false;
  resources.forEach((entry, i) => {
    if (entry === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (entry === '*/*') doubleWildcard = true;
    if (entry === '*') singleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      // As upstream: the last entry without a sub-resource decides.
      resourceWithoutSubresource = entry !== '*';
      return;
    }
    const res = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    if (withWildcardSubresource.has(res)) errs.push(invalid(path.index(i), entry, `if '${res}/*' is present, must not specify ${entry}`));
    if (subresourceOfWildcard.has(sub)) errs.push(invalid(path.index(i), entry, `if '*/${sub}' is present, must not specify ${entry}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourceOfWildcard.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && resourceWithoutSubresource) {
    errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return errs;
}

/** upstream validateRuleWithOperations: operations, groups, versions and resources with their wildcards. */
export function validateRuleWithOperations(rule: RuleWithOperations, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errs.push(required(path.child('operations')));
  if (operations.length > 1 && hasWildcard(operations)) {
    errs.push(invalid(path.child('operations'), operations, "if '*' is present, must not specify other operations"));
  }
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  // "" is a valid group (the core group), but not a valid version.
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && hasWildcard(versions)) {
    errs.push(invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  }
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(rule.resources ?? [], path.child('resources')));
  return errs;
}

/** upstream ValidateWebhookURL with https forced. */
export function validateWebhookURL(raw: string, path: Path): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const parsed = parseGoURL(raw);
  if (parsed.error !== undefined) return [required(path, `url must be a valid URL: ${parsed.error}${form}`)];
  const u = parsed.url;
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be specified${form}`));
  // Upstream echoes user:password; the password stays out of the message here.
  if (u.user) errs.push(invalid(path, u.user.hasPassword ? `${u.user.username}:xxxxx` : u.user.username, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** upstream ValidateWebhookService: name and namespace given, a valid port, a path of DNS-subdomain segments. */
export function validateWebhookService(service: ServiceReference, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(required(path.child('name'), 'service name is required'));
  if (!service.namespace) errs.push(required(path.child('namespace'), 'service namespace is required'));
  // The schema defaults port to 443; an explicit null reads as Go's zero.
  const port = service.port ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(path.child('port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === null || urlPath === '/' || urlPath === '') return errs;
  const p = path.child('path');
  if (urlPath === '//') return [...errs, invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${m}`));
  });
  return errs;
}

/**
 * upstream validateMatchConditions: at most 64, unique qualified names, and expressions that
 * compile (`compileError` says why one does not).
 */
export function validateMatchConditions(conditions: readonly MatchCondition[], path: Path, compileError: (expression: string) => string | undefined = (e) => matchConditionCompileError(e)): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > maxMatchConditions) errs.push(tooMany(path, conditions.length, maxMatchConditions));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const p = path.index(i);
    const expression = (c.expression ?? '').trim();
    if (expression === '') {
      errs.push(required(p.child('expression')));
    } else {
      const problem = compileError(expression);
      if (problem) errs.push(invalid(p.child('expression'), c.expression, problem));
    }
    const name = c.name ?? '';
    if (name === '') errs.push(required(p.child('name')));
    else for (const m of isQualifiedName(name)) errs.push(invalid(p.child('name'), name, m));
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/**
 * A webhook's list of review versions (AdmissionReview, or a CRD's ConversionReview): unique DNS
 * labels, one of `accepted` among them when `requireRecognized`; `requiredDetail` words an empty list.
 */
export function validateReviewVersions(versions: readonly string[] | undefined | null, accepted: readonly string[], requireRecognized: boolean, path: Path, requiredDetail: string): FieldError[] {
  if (!versions || versions.length === 0) return [required(path, requiredDetail)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(path.index(i), v, m));
  });
  if (requireRecognized && !versions.some((v) => accepted.includes(v))) errs.push(invalid(path, versions, `must include at least one of ${accepted.join(', ')}`));
  return errs;
}

function validateAdmissionReviewVersions(versions: readonly string[] | undefined | null, requireRecognized: boolean, path: Path): FieldError[] {
  return validateReviewVersions(versions, acceptedAdmissionReviewVersions, requireRecognized, path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`);
}

function validateWebhook(hook: Webhook, opts: Options, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  // A missing name is reported by the schema.
  if (typeof hook.name === 'string') errs.push(...validateFullyQualifiedName(hook.name, path.child('name')));
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, path.child('rules').index(i))));
  const allowedSideEffects: readonly string[] = opts.requireNoSideEffects ? NoSideEffectClasses : SideEffectClasses;
  if (hook.sideEffects === undefined || hook.sideEffects === null) {
    errs.push(required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  } else if (!allowedSideEffects.includes(hook.sideEffects)) {
    errs.push(notSupported(path.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  }
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) {
    errs.push(invalid(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOpts = { allowInvalidLabelValues: opts.allowInvalidLabelValueInSelector };
  errs.push(...validateLabelSelector(hook.namespaceSelector, path.child('namespaceSelector'), selectorOpts));
  errs.push(...validateLabelSelector(hook.objectSelector, path.child('objectSelector'), selectorOpts));
  const cc = hook.clientConfig ?? {};
  const hasURL = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  if (hasURL === hasService) errs.push(required(path.child('clientConfig'), 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(cc.url!, path.child('clientConfig', 'url')));
  else errs.push(...validateWebhookService(cc.service!, path.child('clientConfig', 'service')));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(hook.matchConditions ?? [], path.child('matchConditions')));
  return errs;
}

function validateConfiguration(webhooks: readonly Webhook[] | undefined, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (webhooks ?? []).forEach((hook, i) => {
    const p = Path.root('webhooks').index(i);
    errs.push(...validateWebhook(hook, opts, p));
    errs.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, p.child('admissionReviewVersions')));
    const name = hook.name ?? '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** Whether any selector of the stored webhooks fails the strict selector rules. */
function hasInvalidSelector(webhooks: readonly Webhook[]): boolean {
  const root = Path.root('');
  return webhooks.some((h) => validateLabelSelector(h.namespaceSelector, root).length > 0 || validateLabelSelector(h.objectSelector, root).length > 0);
}

/** The rules an update is held to: those the stored configuration already met. */
function updateOptions(next: readonly Webhook[], old: readonly Webhook[]): Options {
  const names = old.map((h) => h.name);
  return {
    requireNoSideEffects: old.every((h) => typeof h.sideEffects === 'string' && (NoSideEffectClasses as readonly string[]).includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: old.every((h) => {
      const versions = h.admissionReviewVersions ?? [];
      return versions.length === 0 || versions.some((v) => (acceptedAdmissionReviewVersions as readonly string[]).includes(v));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: hasInvalidSelector(old),
    // Unchanged match conditions are not compiled again (upstream: they may predate a stricter compiler).
    ignoreMatchConditions: next.length === old.length && old.every((h, i) => isDeepStrictEqual(next[i]!.matchConditions ?? [], h.matchConditions ?? [])),
  };
}

function kindValidation<T extends { webhooks?: Webhook[] }>(): KindValidation<T> {
  return {
    name: nameIsDNSSubdomain,
    validate: (c) => validateConfiguration(c.webhooks, createOptions),
    validateUpdate: (c, old) => validateConfiguration(c.webhooks, updateOptions(c.webhooks ?? [], old.webhooks ?? [])),
  };
}

export const validatingWebhookConfigurationValidation: KindValidation<ValidatingWebhookConfiguration> = kindValidation();
export const mutatingWebhookConfigurationValidation: KindValidation<MutatingWebhookConfiguration> = kindValidation<{ webhooks?: MutatingWebhook[] }>();
