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
  | 'Unreachable';

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
