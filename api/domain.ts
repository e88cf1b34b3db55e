// The platform's domain (--api-domain). Every name upstream Kubernetes spells with k8s.io or
// kubernetes.io is derived from this one value: group names, the meta group of Tables and
// continue tokens, the protobuf media type, annotation and label keys, finalizers, secret types
// and signer names. Nothing else spells the domain out.

export interface ApiDomain {
  /** The domain as configured, e.g. `orch.io` or `k8s.io`. */
  readonly name: string;
  /**
   * The domain of annotation and label keys, secret types, finalizers and signer names. Upstream
   * spells these with `kubernetes.io` where its groups say `k8s.io`, so `k8s.io` maps to it.
   */
  readonly keyDomain: string;
  /** `meta.<domain>`: the group of Tables, PartialObjectMetadata, DeleteOptions and continue tokens. */
  readonly metaGroup: string;
  /** `application/vnd.<first label>.protobuf`; upstream's `application/vnd.kubernetes.protobuf` for k8s.io. */
  readonly protobufMediaType: string;
  /** The finalizer by which the namespace controller empties a namespace: `orch`, upstream's `kubernetes`. */
  readonly namespaceFinalizer: string;
  /**
   * The annotation of the BOOKMARK that ends a watch-list's initial events: `<domain>/initial-events-end`.
   * Upstream spells it with its group domain (`k8s.io/initial-events-end`, not kubernetes.io), so
   * it follows `name`, not `keyDomain`. The bookmark carries upstreamInitialEventsEndAnnotation too.
   */
  readonly initialEventsEndAnnotation: string;
  /** `<prefix>.<domain>`: an API group, e.g. group('rbac.authorization') is rbac.authorization.orch.io. */
  group(prefix: string): string;
  /** `[<prefix>.]<keyDomain>/<name>`: an annotation, label, secret type or signer name, e.g. key('metadata.name'). */
  key(name: string, prefix?: string): string;
}

/** The media type stock clients (kubectl, client-go) send and accept for protobuf, whatever our domain. */
export const upstreamProtobufMediaType = 'application/vnd.kubernetes.protobuf';

/**
 * The annotation by which stock client-go (kubectl 1.35, helm 4) knows a watch-list's initial
 * events ended: it looks for this literal key, whatever our domain, so the bookmark that ends them
 * carries it beside the domain's own key (the same key under k8s.io). A bookmark is never stored:
 * the upstream name stays on the wire.
 */
export const upstreamInitialEventsEndAnnotation = 'k8s.io/initial-events-end';

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

/** Why `name` cannot be a platform domain, or undefined when it can. */
export function invalidApiDomain(name: string): string | undefined {
  if (name.length > 253 || !dnsSubdomain.test(name)) {
    return `${JSON.stringify(name)} must be a lower-case DNS subdomain of at least two labels, such as orch.io`;
  }
  return undefined;
}

/** The derived names of a platform domain; throws on a name invalidApiDomain refuses. */
export function apiDomain(name: string): ApiDomain {
  const why = invalidApiDomain(name);
  if (why) throw new Error(why);
  const keyDomain = name === 'k8s.io' ? 'kubernetes.io' : name;
  const brand = keyDomain.split('.')[0]!;
  return {
    name,
    keyDomain,
    metaGroup: `meta.${name}`,
    protobufMediaType: `application/vnd.${brand}.protobuf`,
    namespaceFinalizer: brand,
    initialEventsEndAnnotation: `${name}/initial-events-end`,
    group: (prefix) => `${prefix}.${name}`,
    key: (key, prefix) => `${prefix ? `${prefix}.` : ''}${keyDomain}/${key}`,
  };
}

/** The default domain, orch.io. */
export const defaultApiDomain = apiDomain('orch.io');
