// Rules of StorageClass (upstream ValidateStorageClass, ValidateStorageClassUpdate): a qualified
// provisioner name, bounded parameters, supported policies and modes, well-formed topologies, and
// provisioner, parameters, reclaimPolicy and volumeBindingMode fixed once created.
import { isDeepStrictEqual } from 'node:util';
import type { TopologySelectorTerm } from '../../../api/core/v1/topology-selector.js';
import { PersistentVolumeReclaimPolicies, type StorageClass } from '../../../api/storage/v1/storage-class.js';
import { duplicate, forbidden, invalid, notSupported, required, tooLong, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../validation/names.js';

const maxParameters = 512;
const maxParametersSize = 256 * 1024;
const supportedReclaimPolicies = ['Delete', 'Retain'];

function validateProvisioner(provisioner: string, path: Path): FieldError[] {
  if (provisioner.length === 0) return [required(path)];
  // Upstream lower-cases the name before checking it.
  return isQualifiedName(provisioner.toLowerCase()).map((m) => invalid(path, provisioner.toLowerCase(), m));
}

function validateParameters(params: Record<string, string>, path: Path): FieldError[] {
  const entries = Object.entries(params);
  if (entries.length > maxParameters) return [tooLong(path, 'Provisioner Parameters exceeded max allowed', maxParameters)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > maxParametersSize) errs.push(tooLong(path, '', maxParametersSize));
  return errs;
}

/** One term: label-name keys, each key once, each with at least one distinct value. Returns its key -> values map. */
function validateTopologyTerm(term: TopologySelectorTerm, path: Path): { exprs: Map<string, Set<string>>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const exprs = new Map<string, Set<string>>();
  const exprPath = path.child('matchLabelExpressions');
  (term.matchLabelExpressions ?? []).forEach((req, i) => {
    const p = exprPath.index(i);
    const valuesPath = p.child('values');
    const values = new Set<string>();
    if ((req.values ?? []).length === 0) errs.push(required(valuesPath));
    (req.values ?? []).forEach((v, j) => {
      if (values.has(v)) errs.push(duplicate(valuesPath.index(j), v));
      values.add(v);
    });
    const key = req.key ?? '';
    errs.push(...isQualifiedName(key).map((m) => invalid(p.child('key'), key, m)));
    if (exprs.has(key)) errs.push(duplicate(p.child('key'), key));
    exprs.set(key, values);
  });
  return { exprs, errs };
}

const sameExprs = (a: Map<string, Set<string>>, b: Map<string, Set<string>>) =>
  a.size === b.size && [...a].every(([k, v]) => {
    const w = b.get(k);
    return w !== undefined && w.size === v.size && [...v].every((x) => w.has(x));
  });

function validateAllowedTopologies(terms: TopologySelectorTerm[], path: Path): FieldError[] {
  if (terms.length === 0) return [];
  const errs: FieldError[] = [];
  // Upstream starts its list of seen terms with one empty entry per term, so a term without
  // expressions is reported as a duplicate that many times; kept so the causes match.
  const seen: Map<string, Set<string>>[] = terms.map(() => new Map());
  terms.forEach((term, i) => {
    const p = path.index(i);
    const { exprs, errs: termErrs } = validateTopologyTerm(term, p);
    errs.push(...termErrs);
    for (const s of seen) if (sameExprs(exprs, s)) errs.push(duplicate(p.child('matchLabelExpressions'), ''));
    seen.push(exprs);
  });
  return errs;
}

function validate(sc: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateProvisioner(sc.provisioner ?? '', Path.root('provisioner')));
  errs.push(...validateParameters(sc.parameters ?? {}, Path.root('parameters')));
  // The schema's enum (every volume reclaim policy) reports unknown values; Recycle is known but
  // not for classes.
  const policy: string = sc.reclaimPolicy ?? '';
  if ((PersistentVolumeReclaimPolicies as readonly string[]).includes(policy) && !supportedReclaimPolicies.includes(policy)) {
    errs.push(notSupported(Path.root('reclaimPolicy'), policy, supportedReclaimPolicies));
  }
  // Defaulting fills the mode and the schema's enum reports unknown ones; an explicit null slips past both.
  const mode = sc.volumeBindingMode as string | undefined | null;
  if (mode === undefined || mode === null) errs.push(required(Path.root('volumeBindingMode')));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies ?? [], Path.root('allowedTopologies')));
  return errs;
}

// Upstream checks only what may not change on update, not the create rules again.
function validateUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  if (!isDeepStrictEqual(sc.parameters ?? {}, old.parameters ?? {})) errs.push(forbidden(Path.root('parameters'), 'updates to parameters are forbidden.'));
  if ((sc.provisioner ?? '') !== (old.provisioner ?? '')) errs.push(forbidden(Path.root('provisioner'), 'updates to provisioner are forbidden.'));
  if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) errs.push(forbidden(Path.root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, Path.root('volumeBindingMode')));
  return errs;
}

export const storageClassValidation: KindValidation<StorageClass> = {
  name: nameIsDNSSubdomain,
  validate,
  validateUpdate,
};
