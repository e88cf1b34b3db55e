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
   * The schema's verdict on `obj` (with `old`, an update: transition rules may compare the two),
   * as field errors with paths from the object's root.
   */
  validate(obj: Record<string, unknown>, old?: Record<string, unknown>): FieldError[];
  /**
   * Drops from `obj`, in place, every field the schema does not declare (where it does not preserve
   * unknown fields); returns their paths, e.g. `spec.replicsa`, for fieldValidation.
   */
  prune(obj: Record<string, unknown>): string[];
  /** Applies the schema's defaults to `obj` in place. */
  default(obj: Record<string, unknown>): void;
}

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
