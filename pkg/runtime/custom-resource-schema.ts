// What the scheme knows of a custom resource beyond a built-in kind's registration: the seam
// through which its CustomResourceDefinition's schema checks, prunes and defaults objects, and how
// the definition wants it served. pkg/apiextensions builds both from the definition.
import type { TObject } from '@sinclair/typebox';
import type { FieldError } from './field-errors.js';

/**
 * A custom resource's schema as the write path applies it. apiVersion, kind and metadata at the
 * root (and inside embedded resources) are the caller's business except where a method says so.
 */
export interface CustomResourceSchema {
  /**
   * Decodes `obj` in place as upstream's decoder does: metadata read as ObjectMeta, every field the
   * schema does not declare dropped (where it does not preserve unknown fields), unacceptable nulls
   * dropped. Returns the dropped paths (e.g. `spec.replicsa`) for fieldValidation; throws
   * CustomResourceDecodeError for what cannot be decoded (a 400).
   */
  prune(obj: Record<string, unknown>, opts?: { fromStorage?: boolean }): string[];
  /** Applies the schema's defaults to `obj` in place. */
  default(obj: Record<string, unknown>): void;
  /** Whether the schema has any default (else default() changes nothing). */
  readonly hasDefaults: boolean;
  /**
   * The schema's verdict on `obj` (with `old`, an update: validation ratchets and transition rules
   * compare the two): OpenAPI v3 validation and x-kubernetes-validations, as field errors with
   * paths from the object's root.
   */
  validate(obj: Record<string, unknown>, old?: Record<string, unknown>): Promise<FieldError[]>;
  /** The verdict on a write to the status sub-resource: `status` against its schema, and the rules. */
  validateStatus(obj: Record<string, unknown>, old: Record<string, unknown>): Promise<FieldError[]>;
}

/** A body that cannot be decoded as a custom resource (upstream's decoder error; the server answers 400). */
export class CustomResourceDecodeError extends Error {}

/** How one served version of a custom resource is served. */
export interface CustomResourceServing {
  /** The name of the CustomResourceDefinition: `<plural>.<group>`. */
  definition: string;
  /** The uid of the definition, which tells a recreated definition from the one it replaces. */
  uid: string;
  schema: CustomResourceSchema;
  /** The version objects are stored in (`<group>/<version>`), whatever version they are served in. */
  storageAPIVersion: string;
  /** Warnings every request to this version gets (a deprecated version's). */
  warnings: string[];
  /** The definition is being deleted: objects may be read and deleted, not created. */
  terminating: boolean;
  /** Discovery and OpenAPI show the resource only once the definition is Established. */
  established: boolean;
  /** The schema published in Swagger 2.0 (/openapi/v2); OpenAPI v3 publishes the resource's own. */
  openAPIV2Schema: TObject;
  /** Where the scale sub-resource's desired replica count lives (`.spec.replicas`), when it has one. */
  scaleSpecReplicasPath?: string;
}
