import type { FieldError } from '../../runtime/field-errors.js';
import type { NameValidator } from './names.js';

/**
 * The rules of one kind beyond what its schema states. ObjectMeta (name format via `name`,
 * namespace, labels, annotations, finalizers, immutable metadata) is validated by the generic
 * store; these functions check everything else.
 */
export interface KindValidation<T> {
  /** How `metadata.name` (or a generateName prefix) must look. */
  name: NameValidator;
  /** Rules for a new object. */
  validate(obj: T): FieldError[];
  /** Rules for an update of the main resource: the create rules on `obj` plus immutability against `old`. */
  validateUpdate(obj: T, old: T): FieldError[];
  /** Rules for an update through the status sub-resource (only the kind's status changes). */
  validateStatusUpdate?(obj: T, old: T): FieldError[];
  /** Rules for updates through other object sub-resources (a Pod's ephemeralcontainers), by name. */
  validateSubresourceUpdate?: Record<string, (obj: T, old: T) => FieldError[]>;
}
