// Errors of the storage layer. The registry turns them into Status errors with the resource's
// name; storage itself knows only keys.

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  | 'InvalidObject'
  | 'Expired'
  | 'TooLargeResourceVersion'
  | 'RequestTooLarge'
  /** etcd could not be reached: the request never got to it, and may be sent again. */
  | 'Unreachable'
  /** etcd went away while a write was out at it: the write may or may not have been applied. */
  | 'OutcomeUnknown';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** For TooLargeResourceVersion: the store's current revision. */
    readonly currentRevision?: number,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const isStorageError = (e: unknown, code?: StorageErrorCode): e is StorageError =>
  e instanceof StorageError && (code === undefined || e.code === code);
