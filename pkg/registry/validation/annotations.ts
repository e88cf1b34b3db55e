import { invalid, tooLong, type FieldError, type Path } from '../../runtime/field-errors.js';
import { isQualifiedName } from './names.js';

/** Upstream's limit on the total size of an object's annotations (keys plus values, in bytes). */
export const TotalAnnotationSizeLimitB = 256 * 1024;

/** Validates annotation keys (qualified names, case-insensitive) and the total size. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, m));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TotalAnnotationSizeLimitB) errs.push(tooLong(path, '', TotalAnnotationSizeLimitB));
  return errs;
}
