/** A patch that cannot be used: `malformed` patches are the client's syntax error (400), `failed` ones do not apply to the object (422). */
export class PatchError extends Error {
  constructor(readonly kind: 'malformed' | 'failed', message: string) {
    super(message);
    this.name = 'PatchError';
  }
}
