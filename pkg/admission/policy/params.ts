// The parameters of policies (upstream's policy source param informers and CollectParams): a
// policy's paramKind is resolved through the served kinds' REST mappings to a resource, whose
// objects are read from an informer-fed cache started on first use; any kind the scheme serves
// can be a parameter kind, custom resources included once they are registered there. A binding's
// paramRef then picks the parameters of one request: one object by name, or every object a label
// selector matches, in the namespace the paramRef or the request names.
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';
import type { AdmissionObject, ObjectInterfaces, ObjectLister, PluginDeps } from '../interfaces.js';

export interface ParamKindRef {
  apiVersion?: string;
  kind?: string;
}

export interface ParamRefSpec {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

/** The objects of one parameter kind. */
export interface ParamCache {
  namespaced: boolean;
  lister: ObjectLister;
  hasSynced(): boolean;
  synced: Promise<void>;
}

/** How upstream prints a ParamKind in its messages (the generated String() of the Go type). */
export const paramKindString = (k: ParamKindRef) => `&ParamKind{APIVersion:${k.apiVersion ?? ''},Kind:${k.kind ?? ''},}`;

/** The group and version of `apiVersion` (`v1`, `example.com/v1`), or undefined when it has more than one slash. */
export function parseAPIVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Resolves parameter kinds to caches, one cache per resource however many policies use it. */
export class ParamSource {
  constructor(private readonly objects: ObjectInterfaces | undefined, private readonly informer: PluginDeps['informer']) {}

  /** The cache of `kind`'s objects; throws when no served resource has that kind (a misconfigured policy). */
  resolve(kind: ParamKindRef): ParamCache {
    const gv = parseAPIVersion(kind.apiVersion ?? '');
    if (!gv) throw new Error(`failed to parse paramKind APIVersion: unexpected GroupVersion string: ${kind.apiVersion ?? ''}`);
    const gvk = `${gv.group}/${gv.version}, Kind=${kind.kind ?? ''}`;
    const mapping = this.objects?.restMappings(gv.group, kind.kind ?? '', gv.version)[0];
    const cache = mapping ? this.informer?.(mapping.group, mapping.resource, mapping.version) : undefined;
    if (!mapping || !cache) throw new Error(`failed to find resource referenced by paramKind: '${gvk}'`);
    return { namespaced: mapping.namespaced, ...cache };
  }
}

const nameOf = (o: AdmissionObject) => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');

/** How long a request waits for a parameter cache that is still listing (upstream's 1 s). */
const syncTimeoutMs = 1000;

async function waitSynced(cache: ParamCache): Promise<boolean> {
  if (cache.hasSynced()) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), syncTimeoutMs); });
  try {
    return await Promise.race([cache.synced.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The parameters to evaluate a policy with for one request (upstream's CollectParams): `[null]`
 * when the policy or binding names none, the objects found otherwise (possibly none). Throws the
 * misconfiguration upstream reports, which the policy's failurePolicy then decides on.
 */
export async function collectParams(kind: ParamKindRef | undefined, cache: ParamCache | undefined, ref: ParamRefSpec | undefined, namespace: string): Promise<(AdmissionObject | null)[]> {
  if (!kind || !ref) return [null];
  if (!cache) throw new Error(`paramKind kind \`${paramKindString(kind)}\` not known`);
  let ns = '';
  if (cache.namespaced) {
    ns = ref.namespace || namespace;
    if (ns === '') throw new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  }
  if (!(await waitSynced(cache))) throw new Error(`paramKind kind \`${paramKindString(kind)}\` not yet synced to use for admission`);
  let params: AdmissionObject[];
  if (ref.namespace && !cache.namespaced) throw new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  if (ref.name) {
    if (ref.selector) throw new Error('paramRef.name and paramRef.selector are mutually exclusive');
    const p = cache.lister.get(ns, ref.name);
    params = p ? [p] : [];
  } else if (ref.selector) {
    const selector = ref.selector;
    // In name order, so the first denial reported does not depend on the cache's order.
    params = cache.lister.list(ns)
      .filter((o) => selectorMatches(selector, (o.metadata as { labels?: Record<string, string> } | undefined)?.labels))
      .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  } else {
    throw new Error('one of name or selector must be provided');
  }
  if (params.length === 0 && ref.parameterNotFoundAction === 'Deny') throw new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}
