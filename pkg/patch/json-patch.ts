// JSON patch (RFC 6902), including `test`, applied with fast-json-patch.
import jsonpatch from 'fast-json-patch';
import { PatchError } from './patch-error.js';

/** Error names of fast-json-patch that mean the patch itself is malformed; the others mean it does not apply. */
const malformed = new Set([
  'SEQUENCE_NOT_AN_ARRAY', 'OPERATION_NOT_AN_OBJECT', 'OPERATION_OP_INVALID', 'OPERATION_PATH_INVALID',
  'OPERATION_FROM_REQUIRED', 'OPERATION_VALUE_REQUIRED', 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
]);

/** Applies an RFC 6902 patch to a copy of `target`; throws PatchError when it is malformed or does not apply. */
export function applyJSONPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new PatchError('malformed', 'a JSON patch must be a JSON array of operations');
  try {
    return jsonpatch.applyPatch(structuredClone(target), patch as jsonpatch.Operation[], true, true, true).newDocument;
  } catch (e) {
    const name = (e as { name?: string }).name ?? '';
    const op = (e as { operation?: { op?: string; path?: string } }).operation;
    const where = op ? ` (operation ${JSON.stringify(op.op)} at ${JSON.stringify(op.path)})` : '';
    const message = `${(e as Error).message.split('\n')[0]}${where}`;
    if (malformed.has(name)) throw new PatchError('malformed', message);
    if (name === 'TEST_OPERATION_FAILED') throw new PatchError('failed', `the test operation failed${where}`);
    throw new PatchError('failed', message);
  }
}
