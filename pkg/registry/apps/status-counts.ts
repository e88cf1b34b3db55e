// The replica counts every workload status carries: none negative, none above status.replicas,
// availableReplicas not above readyReplicas (upstream's ValidateXStatus functions, one per kind,
// differ only in which counts they name and how they word the last rule).
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateNonnegativeField } from '../validation/numeric.js';

type Counts<K extends string> = Partial<Record<K | 'replicas' | 'readyReplicas' | 'availableReplicas', number>>;

export function validateReplicaCounts<K extends string>(
  status: Counts<K>,
  nonnegative: readonly (K | 'replicas' | 'readyReplicas' | 'availableReplicas')[],
  notAboveReplicas: readonly (K | 'readyReplicas' | 'availableReplicas')[],
  readyName: 'readyReplicas' | 'status.readyReplicas',
): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('status');
  for (const f of nonnegative) errs.push(...validateNonnegativeField(status[f], path.child(f)));
  const replicas = status.replicas ?? 0;
  for (const f of notAboveReplicas) {
    const v = status[f] ?? 0;
    if (v > replicas) errs.push(invalid(path.child(f), v, 'cannot be greater than status.replicas'));
  }
  const available = status.availableReplicas ?? 0;
  if (available > (status.readyReplicas ?? 0)) {
    errs.push(invalid(path.child('availableReplicas'), available, `cannot be greater than ${readyName}`));
  }
  return errs;
}
