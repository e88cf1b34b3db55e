// The ServiceAccount plug-in (spec 5.5.4-5.5.5, upstream plugin/pkg/admission/serviceaccount): on pod
// create it names the `default` account when the pod names none, refuses a pod whose account does
// not exist, mounts the projected API access volume (token, CA bundle, namespace) into every init
// and regular container unless automount is off, and copies the account's image pull secrets.
// Mirror pods are left unchanged but may not name an account, secrets or token projections. An
// account annotated `<keyDomain>/enforce-mountable-secrets: true` limits the secrets its pods (and
// ephemeral containers added later) may name to the ones it lists.
import { randomString } from '../../util/random-string.js';
import type { ApiDomain } from '../../../api/domain.js';
import { newNotFound } from '../../runtime/errors.js';
import { newAdmissionForbidden } from '../errors.js';
import {
  handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ObjectLister,
  type PluginDeps, type ValidationInterface,
} from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { isMirrorPod, podSecretNames, type ContainerRefs, type PodRefs } from '../podutil/references.js';

export const PluginName = 'ServiceAccount';
/** The account a pod that names none runs as. */
export const DefaultServiceAccountName = 'default';
/** The prefix of the projected volume's name (upstream ServiceAccountVolumeName). */
export const ServiceAccountVolumeName = 'kube-api-access';
/** The config map holding the cluster CA bundle that every namespace gets. */
export const RootCAConfigMapName = 'kube-root-ca.crt';
/** Upstream's WarnOnlyBoundTokenExpirationSeconds: one hour and seven seconds, recognisable in audit. */
export const TokenExpirationSeconds = 3607;
/** 0644, the projected volume's explicit default mode. */
export const ProjectedDefaultMode = 420;

/** Where the token is mounted: `/var/run/secrets/<keyDomain>/serviceaccount`. */
export const apiTokenMountPath = (domain: ApiDomain): string => `/var/run/secrets/${domain.keyDomain}/serviceaccount`;
export const enforceMountableSecretsAnnotation = (domain: ApiDomain): string => domain.key('enforce-mountable-secrets');

interface ServiceAccountLike {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
  automountServiceAccountToken?: boolean;
  secrets?: { name?: string }[];
  imagePullSecrets?: { name?: string }[];
}

interface Pod extends PodRefs {
  spec?: PodRefs['spec'] & { automountServiceAccountToken?: boolean };
}


/** The projected source upstream's TokenVolumeSource builds. */
export function tokenVolumeSource(): Record<string, unknown> {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: TokenExpirationSeconds, path: 'token' } },
      { configMap: { name: RootCAConfigMapName, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: ProjectedDefaultMode,
  };
}

/** Pod's choice wins, then the account's; on by default. */
export function shouldAutomount(sa: ServiceAccountLike, pod: Pod): boolean {
  if (typeof pod.spec?.automountServiceAccountToken === 'boolean') return pod.spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** Go's strconv.ParseBool. */
function parseBool(v: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

export interface ServiceAccountOptions {
  /** Extra live reads of `default` before refusing, as upstream waits for the controller to make it (default 9). */
  defaultRetries?: number;
  /** Milliseconds between those reads (default: 100-199, random, like upstream). */
  retryDelayMs?: number;
  /** Upstream's LimitSecretReferences: enforce mountable secrets for every account (default false). */
  limitSecretReferences?: boolean;
}

export class ServiceAccountPlugin implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  private readonly mountPath: string;
  private readonly enforceKey: string;

  constructor(private readonly domain: ApiDomain, private readonly accounts: ObjectLister, private readonly opts: ServiceAccountOptions = {},
    private readonly generateSuffix: () => string = () => randomString(5)) {
    this.mountPath = apiTokenMountPath(domain);
    this.enforceKey = enforceMountableSecretsAnnotation(domain);
  }

  async admit(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    if (!pod || attrs.operation !== 'CREATE') return;
    if (isMirrorPod(pod, this.domain)) return this.validate(attrs);
    const spec = (pod.spec ??= {}) as NonNullable<Pod['spec']>;
    if (!spec.serviceAccountName) spec.serviceAccountName = DefaultServiceAccountName;
    const sa = await this.lookup(attrs, spec.serviceAccountName);
    if (shouldAutomount(sa, pod)) this.mountToken(pod);
    if (!spec.imagePullSecrets || spec.imagePullSecrets.length === 0) {
      const pulls = (sa.imagePullSecrets ?? []).map((r) => ({ name: r.name ?? '' }));
      if (pulls.length > 0) spec.imagePullSecrets = pulls;
    }
    return this.validate(attrs);
  }

  async validate(attrs: Attributes): Promise<void> {
    const pod = podOf(attrs);
    if (!pod) return;
    if (attrs.operation === 'UPDATE' && attrs.subresource === 'ephemeralcontainers') return this.limitEphemeralContainerSecrets(attrs, pod);
    if (attrs.operation !== 'CREATE') return;
    if (isMirrorPod(pod, this.domain)) {
      if (pod.spec?.serviceAccountName) throw newAdmissionForbidden(attrs, 'a mirror pod may not reference service accounts');
      if (podSecretNames(pod).length > 0) throw newAdmissionForbidden(attrs, 'a mirror pod may not reference secrets');
      for (const v of pod.spec?.volumes ?? []) {
        for (const s of v.projected?.sources ?? []) {
          if (s.serviceAccountToken) throw newAdmissionForbidden(attrs, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
      return;
    }
    const saName = pod.spec?.serviceAccountName;
    if (!saName) throw newAdmissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${pod.metadata?.name ?? ''}`);
    const sa = await this.lookup(attrs, saName);
    if (this.enforceMountableSecrets(sa)) {
      const why = limitSecretReferences(sa, pod);
      if (why) throw newAdmissionForbidden(attrs, why);
    }
  }

  private async limitEphemeralContainerSecrets(attrs: Attributes, pod: Pod): Promise<void> {
    const saName = pod.spec?.serviceAccountName;
    if (!saName) throw newAdmissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${pod.metadata?.name ?? ''}`);
    const sa = await this.lookup(attrs, saName);
    if (!this.enforceMountableSecrets(sa)) return;
    const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
    for (const c of pod.spec?.ephemeralContainers ?? []) {
      const why = envSecretRefusal('ephemeral container', c, mountable, sa);
      // Upstream returns this one as a bare error, which the chain reports as a Forbidden too.
      if (why) throw newAdmissionForbidden(attrs, why);
    }
  }

  private enforceMountableSecrets(sa: ServiceAccountLike): boolean {
    if (this.opts.limitSecretReferences) return true;
    const v = sa.metadata?.annotations?.[this.enforceKey];
    return v !== undefined && parseBool(v);
  }

  /** The account from the cache, else from live reads (several for `default`), else a Forbidden. */
  private async lookup(attrs: Attributes, name: string): Promise<ServiceAccountLike> {
    const ns = attrs.namespace;
    const cached = this.accounts.get(ns, name);
    if (cached) return cached as ServiceAccountLike;
    const attempts = name === DefaultServiceAccountName ? 1 + (this.opts.defaultRetries ?? 9) : 1;
    const delay = this.opts.retryDelayMs ?? 100 + Math.floor(Math.random() * 100);
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, delay));
      const live = await this.accounts.fetch(ns, name);
      if (live) return live as ServiceAccountLike;
    }
    const nf = newNotFound({ group: '', resource: 'serviceaccount' }, name);
    throw newAdmissionForbidden(attrs, `error looking up service account ${ns}/${name}: ${nf.message}`);
  }

  private mountToken(pod: Pod): void {
    const spec = pod.spec!;
    const volumes = spec.volumes ?? [];
    const existing = volumes.find((v) => (v.name ?? '').startsWith(`${ServiceAccountVolumeName}-`));
    const volumeName = existing?.name ?? `${ServiceAccountVolumeName}-${this.generateSuffix()}`;
    let needsVolume = false;
    const mountInto = (containers: ContainerRefs[] | undefined) => {
      for (const c of containers ?? []) {
        if ((c.volumeMounts ?? []).some((m) => m.mountPath === this.mountPath)) continue;
        (c.volumeMounts ??= []).push({ name: volumeName, readOnly: true, mountPath: this.mountPath });
        needsVolume = true;
      }
    };
    mountInto(spec.initContainers);
    mountInto(spec.containers);
    if (!existing && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
  }
}

function envSecretRefusal(what: string, c: ContainerRefs, mountable: Set<string | undefined>, sa: ServiceAccountLike): string | undefined {
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref && !mountable.has(ref.name)) {
      return `${what} ${c.name ?? ''} with envVar ${e.name ?? ''} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${sa.metadata?.name ?? ''} does not reference that secret`;
    }
  }
  return undefined;
}

/** Why the pod names a secret the account does not list (upstream's limitSecretReferences), or undefined. */
export function limitSecretReferences(sa: ServiceAccountLike, pod: Pod): string | undefined {
  const saName = sa.metadata?.name ?? '';
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
  for (const v of pod.spec?.volumes ?? []) {
    if (!v.secret) continue;
    const name = v.secret.secretName ?? '';
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  for (const c of pod.spec?.initContainers ?? []) {
    const why = envSecretRefusal('init container', c, mountable, sa);
    if (why) return why;
  }
  for (const c of pod.spec?.containers ?? []) {
    const why = envSecretRefusal('container', c, mountable, sa);
    if (why) return why;
  }
  const pulls = new Set((sa.imagePullSecrets ?? []).map((s) => s.name));
  const podPulls = pod.spec?.imagePullSecrets ?? [];
  for (let i = 0; i < podPulls.length; i++) {
    const name = podPulls[i]!.name ?? '';
    if (!pulls.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** The pod of a request this plug-in looks at: pods, main resource or ephemeralcontainers. */
function podOf(attrs: Attributes): Pod | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return undefined;
  if (attrs.subresource !== '' && attrs.subresource !== 'ephemeralcontainers') return undefined;
  const obj: AdmissionObject | undefined = attrs.object;
  if (!obj || attrs.kind.kind !== 'Pod') return undefined;
  return obj as Pod;
}

/** Upstream's plug-in takes no configuration; the options exist for tests. */
export const serviceAccountFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  const lister = deps.lister('', 'serviceaccounts');
  if (!lister) throw new Error('missing serviceAccountLister');
  return new ServiceAccountPlugin(deps.domain, lister);
};
