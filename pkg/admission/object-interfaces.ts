// The scheme as admission's webhooks need it (upstream's ObjectInterfaces and equivalent resource
// mapper): resources are equivalent when they keep their objects in the same storage (a kind served
// in several versions, or events.<domain>/v1 beside core v1 events), and an object is converted
// between their kinds through the stored shape.
import type { ObjectDecoder } from '../runtime/decoder.js';
import type { ResourceInfo, Scheme } from '../runtime/scheme.js';
import type { AdmissionObject, GroupVersionKind, GroupVersionResource, ObjectInterfaces } from './interfaces.js';

const gvr = (r: ResourceInfo): GroupVersionResource => ({ group: r.group, version: r.version, resource: r.resource });

export function schemeObjectInterfaces(scheme: Scheme, decoder: ObjectDecoder): ObjectInterfaces {
  const byKind = (k: GroupVersionKind): ResourceInfo | undefined =>
    scheme.resources().find((r) => r.group === k.group && r.version === k.version && r.kind === k.kind && !r.virtual);
  /** A kind a sub-resource speaks (Scale), found below any resource that serves it. */
  const subresourceKind = (k: GroupVersionKind): ResourceInfo | undefined => {
    for (const r of scheme.resources()) {
      for (const info of Object.values(r.subresourceKinds)) {
        if (info && info.group === k.group && info.version === k.version && info.kind === k.kind) return info;
      }
    }
    return undefined;
  };
  return {
    equivalentResourcesFor(resource, subresource) {
      const info = scheme.resource(resource.group, resource.version, resource.resource);
      if (!info || info.virtual) return [resource];
      return scheme.resources()
        .filter((r) => !r.virtual && r.storagePrefix === info.storagePrefix && (subresource === '' || r.subresources.includes(subresource as never)))
        .map(gvr);
    },
    kindFor(resource, subresource) {
      const info = scheme.resource(resource.group, resource.version, resource.resource);
      if (!info) return undefined;
      const sub = subresource ? info.subresourceKinds[subresource as keyof ResourceInfo['subresourceKinds']] : undefined;
      const k = sub ?? info;
      return { group: k.group, version: k.version, kind: k.kind };
    },
    convert(obj, from, to) {
      const copy = structuredClone(obj);
      const target = byKind(to);
      const apiVersion = to.group ? `${to.group}/${to.version}` : to.version;
      if (from.group === to.group && from.version === to.version && from.kind === to.kind) return copy;
      const source = byKind(from);
      if (source && target) {
        if (source.storagePrefix !== target.storagePrefix) throw new Error(`converting ${from.kind} to ${to.kind}: not the same objects`);
        const stored = source.storedAs ? source.storedAs.toStorage(copy) : copy;
        const out = target.storedAs ? target.storedAs.fromStorage(stored) : stored;
        return { ...out, apiVersion, kind: to.kind };
      }
      // A sub-resource's kind (Scale) has one shape in every group that serves it.
      if (from.kind === to.kind && subresourceKind(from) && subresourceKind(to)) return { ...copy, apiVersion, kind: to.kind };
      throw new Error(`converting (${from.group || 'core'}/${from.version}, Kind=${from.kind}) to (${to.group || 'core'}/${to.version}, Kind=${to.kind}): unknown conversion`);
    },
    decode(obj, kind) {
      const info = byKind(kind) ?? subresourceKind(kind);
      if (!info) throw new Error(`no kind ${JSON.stringify(kind.kind)} is registered for version ${JSON.stringify(kind.group ? `${kind.group}/${kind.version}` : kind.version)}`);
      return decoder.decode(info, obj).obj as AdmissionObject;
    },
    restMappings(group, kind, version) {
      return scheme.resources()
        .filter((r) => r.group === group && r.kind === kind && (version === '' || r.version === version))
        .map((r) => ({ ...gvr(r), namespaced: r.namespaced }));
    },
  };
}
