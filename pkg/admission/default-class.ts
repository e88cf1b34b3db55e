// The class a new object gets when it names none (DefaultStorageClass, DefaultIngressClass): of
// the classes marked as the default, the newest by creationTimestamp, then the first by name. Since
// upstream 1.25/1.26 several defaults are no error, which lets an operator switch defaults without
// a moment in which new objects are refused.
import type { AdmissionObject } from './interfaces.js';

interface ClassMeta {
  name?: string;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
}

const metaOf = (o: AdmissionObject): ClassMeta =>
  (typeof o['metadata'] === 'object' && o['metadata'] !== null ? o['metadata'] as ClassMeta : {});

const created = (c: AdmissionObject): number => {
  const t = Date.parse(metaOf(c).creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
};

/** The newest of `classes` that carries one of `annotations` set to "true"; undefined when none does. */
export function newestDefaultClass(classes: readonly AdmissionObject[], annotations: readonly string[]): AdmissionObject | undefined {
  const defaults = classes.filter((c) => {
    const ann = metaOf(c).annotations ?? {};
    return annotations.some((k) => ann[k] === 'true');
  });
  defaults.sort((a, b) => {
    const ta = created(a);
    const tb = created(b);
    if (ta !== tb) return tb - ta;
    const na = metaOf(a).name ?? '';
    const nb = metaOf(b).name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return defaults[0];
}

/** The class's name; '' when it has none. */
export const className = (c: AdmissionObject): string => metaOf(c).name ?? '';
