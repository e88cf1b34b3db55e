// What the generic store asks of each resource: how to prepare and validate objects.
import type { StoredObject } from '../../storage/interface.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { UserInfo } from '../../runtime/user.js';

/** Who asked for a write, for kinds that record it (a CertificateSigningRequest's requester). */
export interface WriteContext {
  user?: UserInfo | undefined;
}

export interface Strategy {
  /** Resets what a client may not set on create (status of kinds with a status sub-resource) and sets generation. */
  prepareForCreate(obj: StoredObject, ctx?: WriteContext): void;
  /** Carries over from `old` what this endpoint may not change, and bumps generation on spec changes. */
  prepareForUpdate(obj: StoredObject, old: StoredObject): void;
  /** The 422 causes of a new object (asynchronous for custom resources, whose CEL rules may be). */
  validate(obj: StoredObject): FieldError[] | Promise<FieldError[]>;
  validateUpdate(obj: StoredObject, old: StoredObject): FieldError[] | Promise<FieldError[]>;
  /** PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion overwrites the current object. */
  readonly allowUnconditionalUpdate: boolean;
  /** DELETE answers with the object itself rather than a Status. */
  readonly returnDeletedObject: boolean;
  /** Whether something must still finish before a deleted object may go (metadata.finalizers, or more). */
  hasPendingFinalizers(obj: StoredObject): boolean;
  /** Marks an object whose deletion waits for finalizers (e.g. a Namespace turns Terminating). */
  prepareForDeletion(obj: StoredObject): void;
  /** Rejects deletions the kind never allows (throws a Status error). */
  validateDeletion(obj: StoredObject): void;
  /** Values of the fields a fieldSelector may name. */
  selectableFields(obj: StoredObject): Record<string, string>;
  /** Field names a fieldSelector may name. */
  readonly selectableFieldNames: ReadonlySet<string>;
}
