// The shape in which a group/version declares its kinds. The scheme in pkg/runtime is built from
// these declarations; discovery, routing, storage keys and codecs all read it.
import type { Static, TObject } from '@sinclair/typebox';
import type { PrinterColumn } from './printer-column.js';

export type Stability = 'stable' | 'beta' | 'alpha';

/**
 * `status` holds what controllers observe; `finalize` (Namespace only) edits spec.finalizers;
 * `scale` reads and sets the replica count as an autoscaling/v1 Scale (kinds with `scale`);
 * `token` (ServiceAccount) issues a TokenRequest; Pods have `binding` (a Binding assigns the
 * node), `eviction` (an Eviction deletes within the disruption budgets) and
 * `ephemeralcontainers` (edits spec.ephemeralContainers); a CertificateSigningRequest's `approval`
 * writes its approval conditions. The CONNECT sub-resources `exec`,
 * `attach`, `portforward` (Pods) and `proxy` (Pods, Nodes, Services) are proxied to where the
 * object lives, after admission; `log` (Pods) streams a container's log from its node agent.
 */
export type Subresource = 'status' | 'finalize' | 'scale' | 'token' | 'binding' | 'eviction' | 'ephemeralcontainers' | 'approval'
  | 'exec' | 'attach' | 'portforward' | 'proxy' | 'log';

/** The kind a sub-resource speaks when it is not the parent's own (Scale, TokenRequest). */
export interface SubresourceKind {
  group: string;
  version: string;
  kind: string;
  schema: TObject;
  /** The verbs the sub-resource serves. */
  verbs: string[];
  /**
   * A CONNECT sub-resource: its options come from the query (and, for `proxy`, the path below it),
   * admission sees operation CONNECT, and the request is then proxied.
   */
  connect?: boolean;
  /**
   * A read whose options come from the query (pods/log: PodLogOptions) and whose answer streams
   * from where the registry says, as upstream's getters with options: no admission, and discovery
   * names the parent's kind, as upstream's does.
   */
  streamed?: boolean;
}

/** How a scalable kind's fields map onto its autoscaling/v1 Scale. */
export interface ScaleAdapter<T = Record<string, unknown>> {
  /** The desired replica count (spec), with the kind's default when unset. */
  specReplicas(obj: T): number;
  /** False when the object has no desired replica count at all (a custom resource's path is unset); absent: always has one. */
  hasSpecReplicas?(obj: T): boolean;
  setSpecReplicas(obj: T, replicas: number): void;
  /** The observed replica count (status). */
  statusReplicas(obj: T): number;
  /** The pods counted, in the string form of label selectors ('' for none). */
  selector(obj: T): string;
}

/**
 * Where a kind served from another kind's storage keeps its objects (upstream serves
 * events.k8s.io Events from the core events storage): that resource's etcd keys hold the other
 * kind's shape, and the pure conversions below translate between the two on every read and write.
 */
export interface StoredAs {
  /** Group ('' for core) and resource whose storage (etcd keys, time to live) the kind shares. */
  group: string;
  resource: string;
  /** The stored kind's schema: what is written is shaped as that kind is. */
  schema: TObject;
  /** An object of this kind as the stored kind (metadata kept as it is). */
  toStorage(obj: Record<string, unknown>): Record<string, unknown>;
  /** A stored object as this kind (metadata kept as it is). */
  fromStorage(obj: Record<string, unknown>): Record<string, unknown>;
}

export interface KindRegistration {
  kind: string;
  /** Plural lower-case resource name used in URLs. */
  resource: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Sub-resources served below an item path. */
  subresources?: Subresource[];
  /** Verbs the kind does not serve (upstream Namespaces have no deletecollection). */
  unservedVerbs?: 'deletecollection'[];
  /** The one schema of the kind, including apiVersion, kind and metadata. */
  schema: TObject;
  /** Defaults that depend on other fields; plain defaults live in the schema as `default`. */
  defaulter?: (obj: Record<string, unknown>) => void;
  /** Columns of the kind's Table output, in order; without them a Table shows Name and Created At. */
  printerColumns?: PrinterColumn[];
  /** The `scale` sub-resource's mapping, for kinds that list it among their sub-resources. */
  scale?: ScaleAdapter;
  /** Sub-resources that speak another kind, with that kind. */
  subresourceKinds?: Partial<Record<Subresource, SubresourceKind>>;
  /**
   * Not stored: the kind is a request answered by the server (a review), so only `create` is
   * served, by a handler the server is given.
   */
  virtual?: boolean;
  /** The kind lives in another resource's storage, converted on the way in and out. */
  storedAs?: StoredAs;
  /**
   * Reads, in place, the parts of a decoded object its schema declares free-form but the kind
   * types by hand (a CustomResourceDefinition's recursive openAPIV3Schema): unknown fields are
   * dropped and reported, wrong JSON types refuse the body.
   */
  decodeFreeForm?: (obj: Record<string, unknown>) => FreeFormDecoding;
  /** False for kinds without a protobuf form: clients asking only for protobuf get 406, protobuf bodies 415. */
  protobuf?: false;
}

/** What reading an object's free-form parts found (see KindRegistration.decodeFreeForm). */
export interface FreeFormDecoding {
  /** Paths of the dropped unknown fields. */
  unknownFields: string[];
  /** Wrong JSON types, each `path: expected T, got U`. */
  decodeErrors: string[];
}

export interface GroupVersionRegistration {
  /** API group; the empty string is the core group served at /api. */
  group: string;
  version: string;
  stability: Stability;
  /** Served unless --runtime-config turns it off; by default only stable versions are (spec 9.2: betas before 1.22 too). */
  enabledByDefault?: boolean;
  kinds: KindRegistration[];
}

/** Declares a kind, keeping its defaulter and printer-column cells typed by the kind's own schema. */
export function defineKind<S extends TObject>(
  reg: Omit<KindRegistration, 'schema' | 'defaulter' | 'printerColumns' | 'scale'> & {
    schema: S;
    defaulter?: (obj: Static<S>) => void;
    printerColumns?: PrinterColumn<Static<S>>[];
    scale?: ScaleAdapter<Static<S>>;
  },
): KindRegistration {
  return reg as KindRegistration;
}
