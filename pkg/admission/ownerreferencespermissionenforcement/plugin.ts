// OwnerReferencesPermissionEnforcement (upstream plugin/pkg/admission/gc, 1.30): changing an
// object's metadata.ownerReferences needs `delete` on that object (a create needs nothing: its
// author could have not made it), and making an owner reference block its owner's deletion
// (blockOwnerDeletion: true, newly or on an existing reference) needs `update` on the owner's
// `finalizers` sub-resource, for every resource its apiVersion and kind map to. Both are asked of
// the server's authorizer on the requester's behalf; pods/status is exempt, as upstream.
import { newAdmissionForbidden } from '../errors.js';
import {
  handlesOperations, type AdmissionObject, type Attributes, type AuthorizationCheck, type AuthorizeFunc, type ObjectInterfaces, type RESTMapping, type ValidationInterface,
} from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'OwnerReferencesPermissionEnforcement';

/** An owner reference as the client sent it (any field may be missing or of the wrong type before validation). */
interface OwnerReference {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
  blockOwnerDeletion?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The owner references of an object; none when it has no metadata (upstream's meta.Accessor failing). */
function ownerReferences(obj: AdmissionObject | undefined): OwnerReference[] {
  const meta = obj?.['metadata'];
  if (typeof meta !== 'object' || meta === null) return [];
  const refs = (meta as { ownerReferences?: unknown }).ownerReferences;
  return Array.isArray(refs) ? refs.map((r) => (typeof r === 'object' && r !== null ? r as OwnerReference : {})) : [];
}

/** Go's semantic equality of two references: absent and false differ for the two pointer fields. */
const sameReference = (a: OwnerReference, b: OwnerReference): boolean =>
  str(a.apiVersion) === str(b.apiVersion) && str(a.kind) === str(b.kind) && str(a.name) === str(b.name) && str(a.uid) === str(b.uid)
  && a.controller === b.controller && a.blockOwnerDeletion === b.blockOwnerDeletion;

function changingOwnerReferences(refs: OwnerReference[], old: AdmissionObject | undefined): boolean {
  if (!old) return refs.length > 0;
  const oldRefs = ownerReferences(old);
  return refs.length !== oldRefs.length || refs.some((r, i) => !sameReference(r, oldRefs[i]!));
}

/**
 * The references that block their owner's deletion and did not before: new ones, and existing ones
 * whose blockOwnerDeletion turned true. Upstream matches a reference to its old self by uid alone,
 * so of two references sharing a uid one could turn blocking unchecked; here the kind and name
 * must match too.
 */
function newlyBlocking(refs: OwnerReference[], old: AdmissionObject | undefined): OwnerReference[] {
  const blocking = refs.filter((r) => r.blockOwnerDeletion === true);
  if (!old || blocking.length === 0) return blocking;
  const identity = (r: OwnerReference) => JSON.stringify([str(r.uid), str(r.kind), str(r.name)]);
  const wasBlocking = new Set(ownerReferences(old).filter((r) => r.blockOwnerDeletion === true).map(identity));
  return blocking.filter((r) => !wasBlocking.has(identity(r)));
}

/** Upstream's schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** Go prints a nil error as `<nil>`; upstream's messages end in `<reason>, <error>`. */
const why = (d: { reason?: string; evaluationError?: string }) => `${d.reason ?? ''}, ${d.evaluationError || '<nil>'}`;

export class OwnerReferencesPermissionEnforcement implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  constructor(private readonly authorize: AuthorizeFunc, private readonly objects: ObjectInterfaces) {}

  async validate(attrs: Attributes): Promise<void> {
    // Old kubelets corrupt owner references in pod status writes; the status strategy keeps them anyway.
    if (attrs.resource.group === '' && attrs.resource.resource === 'pods' && attrs.subresource === 'status') return;
    const refs = ownerReferences(attrs.object);
    if (!changingOwnerReferences(refs, attrs.oldObject)) return;
    const user = attrs.userInfo;
    if (attrs.operation !== 'CREATE') {
      const { group, version, resource } = attrs.resource;
      const d = await this.authorize(user, {
        verb: 'delete', namespace: attrs.namespace, apiGroup: group, apiVersion: version, resource, subresource: attrs.subresource, name: attrs.name,
      });
      if (!d.allowed) throw newAdmissionForbidden(attrs, `cannot set an ownerRef on a resource you can't delete: ${why(d)}`);
    }
    const blocking = newlyBlocking(refs, attrs.oldObject);
    if (blocking.length === 0) return;
    const anything = await this.authorize(user, { verb: 'update', apiGroup: '*', apiVersion: '*', resource: '*', subresource: 'finalizers', name: '*' });
    if (anything.allowed) return;
    for (const ref of blocking) {
      let mappings: RESTMapping[];
      try {
        mappings = this.mappings(ref);
      } catch (e) {
        throw newAdmissionForbidden(attrs, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${str(ref.apiVersion)} Kind ${str(ref.kind)}: ${e instanceof Error ? e.message : String(e)}`);
      }
      // A kind served by several resources needs the right on each of them.
      for (const m of mappings) {
        const check: AuthorizationCheck = { verb: 'update', apiGroup: m.group, apiVersion: m.version, resource: m.resource, subresource: 'finalizers', name: str(ref.name) };
        // An owner in a namespace is in the dependent's namespace.
        if (m.namespaced) check.namespace = attrs.namespace;
        const d = await this.authorize(user, check);
        if (!d.allowed) throw newAdmissionForbidden(attrs, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why(d)}`);
      }
    }
  }

  /** The resources the reference's apiVersion and kind map to; throws upstream's NoKindMatchError text when none. */
  private mappings(ref: OwnerReference): RESTMapping[] {
    const { group, version } = parseGroupVersion(str(ref.apiVersion));
    const kind = str(ref.kind);
    const found = this.objects.restMappings(group, kind, version);
    if (found.length > 0) return found;
    if (version === '') throw new Error(`no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`);
    throw new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(group ? `${group}/${version}` : version)}`);
  }
}

/** Makes the plug-in over the server's authorizer and served kinds, which it cannot work without. */
export const ownerReferencesPermissionEnforcementFactory: PluginFactory = (_configuration, deps) => {
  if (!deps.authorize) throw new Error('missing authorizer');
  if (!deps.objects) throw new Error('missing restMapper');
  return new OwnerReferencesPermissionEnforcement(deps.authorize, deps.objects);
};
