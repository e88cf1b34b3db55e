// Admission of one write request (ARCHITECTURE section 4): the handler runs the mutating phase on
// the decoded object, and hands the store a validation callback that runs the request's other
// write checks (RBAC's escalation prevention) and then the validating phase on the object as the
// registry prepared it. Both phases see one Attributes value, so annotations and reinvocation
// state carry across them.
import { AttributesRecord } from '../admission/attributes.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { AdmissionObject, AuditLevel, Operation } from '../admission/interfaces.js';
import type { ValidateObjectFunc } from '../registry/generic/store.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import { AnonymousUser, type UserInfo } from '../runtime/user.js';
import type { StoredObject } from '../storage/interface.js';
import type { RequestInfo } from './request-info.js';

/** A check of a new or updated object (`old` null on create) written by `user`; throws a StatusError to refuse. */
export type WriteCheck = (write: { user: UserInfo | undefined; namespace: string; obj: StoredObject; old: StoredObject | null }) => Promise<void>;

export interface WriteAdmissionInit {
  chain: AdmissionChain | undefined;
  check: WriteCheck | undefined;
  info: RequestInfo;
  /** The kind the request's body speaks (the parent's, or a sub-resource's own such as Scale). */
  kind: ResourceInfo;
  user: UserInfo | undefined;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions, PatchOptions or DeleteOptions as the client sent them. */
  options: AdmissionObject;
  /** Adds a warning to the answer (plug-ins and webhooks may warn the client). */
  warn?: (text: string) => void;
}

/** Where authentication does not run (tests of lower layers) admission still needs a user. */
const nobody: UserInfo = { name: AnonymousUser, groups: [], extra: {} };

export class WriteAdmission {
  private attrs: AttributesRecord | undefined;
  /** Every Attributes value the phases saw (one per try of an update, one per object of a collection delete). */
  private readonly records: AttributesRecord[] = [];

  constructor(private readonly init: WriteAdmissionInit) {}

  /**
   * The admission annotations an audit event at `level` carries, from every phase and try so far;
   * the first value of a key counts, as the audit event refuses to overwrite one.
   */
  annotations(level: AuditLevel): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.records) for (const [k, v] of Object.entries(r.annotations(level))) if (!(k in out)) out[k] = v;
    return out;
  }

  private record(operation: Operation, object: AdmissionObject | undefined, oldObject: AdmissionObject | undefined, name = this.init.info.name): AttributesRecord {
    const { info, kind, user, dryRun, options, warn } = this.init;
    const record = new AttributesRecord({
      kind: { group: kind.group, version: kind.version, kind: kind.kind },
      resource: { group: info.apiGroup, version: info.apiVersion, resource: info.resource },
      subresource: info.subresource,
      name,
      namespace: info.namespace,
      operation,
      ...(object ? { object } : {}),
      ...(oldObject ? { oldObject } : {}),
      // A CONNECT has no operation options: its options kind is the object.
      ...(operation === 'CONNECT' ? {} : { options }),
      dryRun,
      userInfo: user ?? nobody,
      ...(warn ? { warn } : {}),
    });
    this.records.push(record);
    return record;
  }

  /**
   * The mutating phase for a create (no `old`) or an update of `old`; returns the object to write.
   * An update re-runs it on every retry of the store's compare-and-swap, with the fresh object.
   */
  async mutate(obj: StoredObject, old: StoredObject | null): Promise<StoredObject> {
    // A create names its object in the body, as upstream's handler takes the name from it.
    const attrs = this.record(old ? 'UPDATE' : 'CREATE', obj, old ?? undefined, this.init.info.name || obj.metadata?.name || '');
    this.attrs = attrs;
    const chain = this.init.chain;
    if (chain?.handles(attrs.operation)) await chain.admit(attrs);
    return attrs.object as StoredObject;
  }

  /** The mutating phase of a delete, which has no object; run before the store reads the object. */
  async mutateDelete(name = this.init.info.name): Promise<void> {
    const chain = this.init.chain;
    if (!chain?.handles('DELETE')) return;
    await chain.admit(this.record('DELETE', undefined, undefined, name));
  }

  /** The store's validation callback of a create or update: other write checks first, then the validating phase. */
  readonly validate: ValidateObjectFunc = async (obj, old, attempt) => {
    const { check, chain, user, info } = this.init;
    await check?.({ user, namespace: info.namespace, obj, old });
    if (!chain) return [];
    const attrs = this.attrs ?? this.record(old ? 'UPDATE' : 'CREATE', obj, old ?? undefined);
    attrs.setObject(obj);
    attrs.beginAttempt(attempt);
    if (chain.handles(attrs.operation)) await chain.validate(attrs);
    return attrs.alongsideWrites();
  };

  /** The store's validation callback of a delete: the validating phase with the object about to go. */
  readonly validateDelete: ValidateObjectFunc = async (current) => {
    const chain = this.init.chain;
    if (!chain?.handles('DELETE')) return;
    await chain.validate(this.record('DELETE', undefined, current, current.metadata.name ?? this.init.info.name));
  };

  /** Both phases of a CONNECT, whose object is its options (PodExecOptions, ...); returns them as admitted. */
  async admitConnect(connectOptions: AdmissionObject): Promise<AdmissionObject> {
    const attrs = this.record('CONNECT', connectOptions, undefined);
    const chain = this.init.chain;
    if (chain?.handles('CONNECT')) {
      await chain.admit(attrs);
      await chain.validate(attrs);
    }
    return attrs.object ?? connectOptions;
  }

  /**
   * Both phases at once, for what the registry does not validate itself: a request answered
   * without it (a review, a token request), or the Scale of a `scale` sub-resource.
   */
  async admitWhole(obj: StoredObject, old: StoredObject | null): Promise<StoredObject> {
    const out = await this.mutate(obj, old);
    await this.validate(out, old, 1);
    return out;
  }
}
