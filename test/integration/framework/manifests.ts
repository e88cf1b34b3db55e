// The fixtures as the YAML a user would hand to kubectl, for a server of any API domain.
import { stringify } from 'yaml';
import { fixtures, type KindFixture } from '../fixtures.js';

/**
 * Moves the groups of `obj` (apiVersion and apiGroup fields, at any depth) from one platform domain
 * to another: `rbac.authorization.<from>/v1` -> `rbac.authorization.<to>/v1`. Core and upstream
 * groups without the domain (apps, policy) stay as they are.
 */
export function rebaseGroups<T>(obj: T, from: string, to: string): T {
  if (from === to) return obj;
  const move = (group: string) => (group.endsWith(`.${from}`) ? group.slice(0, -from.length) + to : group);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'apiVersion' && typeof x === 'string') {
        const slash = x.lastIndexOf('/');
        out[k] = slash < 0 ? x : move(x.slice(0, slash)) + x.slice(slash);
      } else if (k === 'apiGroup' && typeof x === 'string') {
        out[k] = move(x);
      } else {
        out[k] = walk(x);
      }
    }
    return out;
  };
  return walk(obj) as T;
}

export interface Manifest {
  fixture: KindFixture;
  /** The fixture's apiVersion on the target server. */
  apiVersion: string;
  name: string;
  object: Record<string, any>;
}

/**
 * One object of every served kind, named `<prefix>-<kind in lower case>`, with its groups in
 * `domain` (the fixtures are written for `fixtureDomain`).
 */
export function manifests(prefix: string, fixtureDomain: string, domain: string): Manifest[] {
  return fixtures.map((f) => {
    const name = `${prefix}-${f.kind.toLowerCase()}`;
    const object = rebaseGroups(f.make(name), fixtureDomain, domain);
    return { fixture: f, apiVersion: object.apiVersion as string, name, object };
  });
}

/**
 * A multi-document YAML stream, as in a file given to `kubectl create -f`. Written as YAML 1.1,
 * which the Go clients read: strings such as `yes` or `on` are quoted, not taken for booleans.
 */
export function toYAML(objects: readonly Record<string, unknown>[]): string {
  return objects.map((o) => stringify(o, { version: '1.1' })).join('---\n');
}

/** The REST path of an object (or of its collection, without a name) on any group version. */
export function objectPath(m: Pick<Manifest, 'apiVersion' | 'fixture'>, namespace: string, name?: string): string {
  const gv = m.apiVersion.includes('/') ? `/apis/${m.apiVersion}` : `/api/${m.apiVersion}`;
  const collection = m.fixture.namespaced ? `${gv}/namespaces/${namespace}/${m.fixture.resource}` : `${gv}/${m.fixture.resource}`;
  return name === undefined ? collection : `${collection}/${name}`;
}

/** How kubectl names an object in its output: `statefulset.apps/web`, `configmap/settings`. */
export function kubectlName(m: Pick<Manifest, 'apiVersion' | 'fixture' | 'name'>): string {
  const slash = m.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : `.${m.apiVersion.slice(0, slash)}`;
  return `${m.fixture.kind.toLowerCase()}${group}/${m.name}`;
}

/**
 * The manifests, completed the way a user makes manifests that `kubectl apply` finds unchanged the
 * second time. kubectl replaces an atomic list whole whenever the live list differs from the
 * manifest's, so the values the server defaults inside such lists are spelled out: apiGroup of
 * User and Group subjects, the protocol of NetworkPolicy ports, the scope of webhook rules. The StatefulSet mounts a pod volume
 * instead of a volumeClaimTemplate, whose embedded claim upstream servers default and print
 * (status.phase, metadata.creationTimestamp: null) in ways no manifest reproduces.
 */
export function applyManifests(prefix: string, fixtureDomain: string, domain: string): Manifest[] {
  return manifests(prefix, fixtureDomain, domain).map((m) => {
    const o = structuredClone(m.object);
    switch (m.fixture.kind) {
      case 'ClusterRoleBinding':
      case 'RoleBinding':
        for (const s of o.subjects) if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = o.roleRef.apiGroup;
        break;
      case 'NetworkPolicy':
        for (const rule of o.spec.ingress ?? []) for (const p of rule.ports ?? []) p.protocol ??= 'TCP';
        break;
      case 'ValidatingWebhookConfiguration':
      case 'MutatingWebhookConfiguration':
        for (const w of o.webhooks) for (const r of w.rules ?? []) r.scope ??= '*';
        break;
      case 'StatefulSet':
        delete o.spec.volumeClaimTemplates;
        o.spec.template.spec.volumes = [{ name: 'data', emptyDir: {} }];
        break;
    }
    return { ...m, object: o };
  });
}
