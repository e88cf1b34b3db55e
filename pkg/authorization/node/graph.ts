// Which objects each node may reach, as upstream's Node authorizer graph holds it
// (plugin/pkg/auth/authorizer/node/graph.go): one vertex per object that matters to a node, and
// edges pointing toward the nodes:
//
//   node <- pod <- secret, configmap, pvc, serviceaccount
//               pvc <- pv <- secret
//
// An edge from a pod's dependency to the pod carries the node the pod is bound to (its
// destination), and every vertex counts the destinations of its outgoing edges, so "does this
// secret lead to node n" is usually one lookup. Edges from a PV do not know their node (the claim
// may be bound to no pod yet); those paths are walked. A vertex left with no edges is removed, so
// the graph holds only what some pod bound to a node still refers to.

/** Upstream's vertex types; we serve no VolumeAttachments, so the graph never holds one (nor ResourceClaims or ResourceSlices). */
export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'secret' | 'serviceAccount' | 'volumeattachment';

class Vertex {
  /** Outgoing edges: the vertex pointed at, and the node the edge leads to when it is known. */
  readonly out = new Map<Vertex, Vertex | undefined>();
  readonly in = new Set<Vertex>();
  /** Node vertex -> how many outgoing edges carry it as their destination. */
  readonly destinations = new Map<Vertex, number>();

  constructor(readonly type: VertexType, readonly namespace: string, readonly name: string) {}

  get degree(): number {
    return this.out.size + this.in.size;
  }

  toString(): string {
    return this.namespace ? `${this.type}:${this.namespace}/${this.name}` : `${this.type}:${this.name}`;
  }
}

/** What a pod bound to a node refers to, in its own namespace (empty for a mirror pod). */
export interface PodReferences {
  namespace: string;
  name: string;
  nodeName: string;
  serviceAccount: string;
  secrets: readonly string[];
  configMaps: readonly string[];
  /** Claims of persistentVolumeClaim volumes, and those ephemeral volumes are given. */
  claims: readonly string[];
}

/** A PV bound to a claim, and the secrets the node needs to mount it. */
export interface PersistentVolumeReferences {
  claim: { namespace: string; name: string };
  secrets: readonly { namespace: string; name: string }[];
}

/** The answer to "may this node reach this object", with why not for the operator's log. */
export type PathResult = { found: true } | { found: false; why: string };

export class Graph {
  /** type -> namespace -> name -> vertex ('' namespace for cluster-scoped objects). */
  private readonly vertices = new Map<VertexType, Map<string, Map<string, Vertex>>>();

  /** Records a pod bound to a node, replacing whatever was recorded for the pod before. */
  addPod(p: PodReferences): void {
    this.deleteVertex('pod', p.namespace, p.name);
    const pod = this.getOrCreate('pod', p.namespace, p.name);
    const node = this.getOrCreate('node', '', p.nodeName);
    this.addEdge(pod, node, node);
    if (p.serviceAccount) this.addEdge(this.getOrCreate('serviceAccount', p.namespace, p.serviceAccount), pod, node);
    for (const s of p.secrets) this.addEdge(this.getOrCreate('secret', p.namespace, s), pod, node);
    for (const c of p.configMaps) this.addEdge(this.getOrCreate('configmap', p.namespace, c), pod, node);
    for (const c of p.claims) this.addEdge(this.getOrCreate('pvc', p.namespace, c), pod, node);
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** Records a PV, replacing what was recorded for it; a PV bound to no claim leads nowhere. */
  addPersistentVolume(name: string, refs: PersistentVolumeReferences | undefined): void {
    this.deleteVertex('pv', '', name);
    if (!refs) return;
    const pv = this.getOrCreate('pv', '', name);
    this.addEdge(pv, this.getOrCreate('pvc', refs.claim.namespace, refs.claim.name), undefined);
    for (const s of refs.secrets) this.addEdge(this.getOrCreate('secret', s.namespace, s.name), pv, undefined);
  }

  deletePersistentVolume(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** Whether some path leads from the object to the node, never through an edge bound for another node. */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): PathResult {
    const node = this.get('node', '', nodeName);
    if (!node) return { found: false, why: `unknown node '${nodeName}' cannot get ${type} ${namespace}/${name}` };
    const start = this.get(type, namespace, name);
    if (!start) return { found: false, why: `node '${nodeName}' cannot get unknown ${type} ${namespace}/${name}` };
    if (start.destinations.has(node)) return { found: true };
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    for (let v = stack.pop(); v; v = stack.pop()) {
      for (const [to, destination] of v.out) {
        if (destination && destination !== node) continue;
        if (to === node || destination === node) return { found: true };
        if (!seen.has(to)) {
          seen.add(to);
          stack.push(to);
        }
      }
    }
    return { found: false, why: `node '${nodeName}' cannot get ${type} ${namespace}/${name}, no relationship to this object was found in the node authorizer graph` };
  }

  /** How many vertices of a type the graph holds (for tests and the operator). */
  count(type: VertexType): number {
    let n = 0;
    for (const names of this.vertices.get(type)?.values() ?? []) n += names.size;
    return n;
  }

  /** The vertices an object's vertex points at, as `type:namespace/name` (for tests). */
  edgesFrom(type: VertexType, namespace: string, name: string): string[] {
    return [...(this.get(type, namespace, name)?.out.keys() ?? [])].map(String).sort();
  }

  private get(type: VertexType, namespace: string, name: string): Vertex | undefined {
    return this.vertices.get(type)?.get(namespace)?.get(name);
  }

  private getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    let namespaces = this.vertices.get(type);
    if (!namespaces) this.vertices.set(type, (namespaces = new Map()));
    let names = namespaces.get(namespace);
    if (!names) namespaces.set(namespace, (names = new Map()));
    let v = names.get(name);
    if (!v) names.set(name, (v = new Vertex(type, namespace, name)));
    return v;
  }

  private addEdge(from: Vertex, to: Vertex, destination: Vertex | undefined): void {
    // A pod naming one secret twice makes one edge, counted once.
    if (from.out.has(to)) this.removeEdge(from, to);
    from.out.set(to, destination);
    to.in.add(from);
    if (destination) from.destinations.set(destination, (from.destinations.get(destination) ?? 0) + 1);
  }

  private removeEdge(from: Vertex, to: Vertex): void {
    const destination = from.out.get(to);
    from.out.delete(to);
    to.in.delete(from);
    if (!destination) return;
    const n = (from.destinations.get(destination) ?? 0) - 1;
    if (n > 0) from.destinations.set(destination, n);
    else from.destinations.delete(destination);
  }

  /** Removes a vertex with its edges, and the neighbours whose only edge was to or from it. */
  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.get(type, namespace, name);
    if (!v) return;
    const orphans = [...v.out.keys(), ...v.in].filter((n) => n.degree === 1);
    this.removeVertex(v);
    for (const o of orphans) this.removeVertex(o);
  }

  private removeVertex(v: Vertex): void {
    for (const to of [...v.out.keys()]) this.removeEdge(v, to);
    for (const from of [...v.in]) this.removeEdge(from, v);
    const names = this.vertices.get(v.type)?.get(v.namespace);
    names?.delete(v.name);
    if (names?.size === 0) this.vertices.get(v.type)!.delete(v.namespace);
  }
}
