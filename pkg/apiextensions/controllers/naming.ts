// The naming controller (upstream's NamingConditionController): a definition's requested names
// become its accepted names unless another definition of the same group already accepted them,
// which the NamesAccepted condition reports (PluralConflict, SingularConflict, ShortNamesConflict,
// KindConflict, ListKindConflict). Established starts False (Installing) once the names are
// accepted; the establishing controller turns it True.
import { isDeepStrictEqual } from 'node:util';
import type {
  CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames,
} from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { Logger } from '../../log/logger.js';
import type { ObjectCache } from '../../registry/generic/object-cache.js';
import type { Store } from '../../registry/generic/store.js';
import { findCondition, sameCondition, setCondition } from '../conditions.js';
import { changeDefinition } from './definition-writes.js';
import { KeyQueue } from './key-queue.js';

type Names = Partial<CustomResourceDefinitionNames>;
type Condition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;


/** Names equal as upstream's semantic equality sees them (an empty list is no list). */
function sameNames(a: Names | undefined, b: Names | undefined): boolean {
  const norm = (n: Names | undefined) => Object.fromEntries(Object.entries(n ?? {}).filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0)));
  return isDeepStrictEqual(norm(a), norm(b));
}

/** upstream's equalToAcceptedOrFresh: an error message when `requested` is someone else's. */
function takenBy(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if (requested === accepted || requested === undefined || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** The accepted names and the NamesAccepted and Established conditions `crd` should have among the definitions of its group. */
export function namesAndConditions(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): { names: Names; namesAccepted: Condition; established: Condition } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.spec?.group !== crd.spec.group) continue;
    const n = other.status?.acceptedNames;
    for (const r of [n?.plural, n?.singular, ...(n?.shortNames ?? [])]) if (r !== undefined) resources.add(r);
    for (const k of [n?.kind, n?.listKind]) if (k !== undefined) kinds.add(k);
  }
  const requested = crd.spec.names;
  const accepted: Names = crd.status?.acceptedNames ?? {};
  const names: Names = { ...accepted };
  let namesAccepted: Condition = { type: 'NamesAccepted', status: 'Unknown' };
  const conflict = (reason: string, message: string) => {
    namesAccepted = { type: 'NamesAccepted', status: 'False', reason, message };
  };
  const single = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string) => {
    const problem = takenBy(requested[field], accepted[field], used);
    if (problem) conflict(reason, problem);
    else if (requested[field] !== undefined) names[field] = requested[field];
  };
  single('plural', resources, 'PluralConflict');
  single('singular', resources, 'SingularConflict');
  if (!isDeepStrictEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const ours = new Set(accepted.shortNames ?? []);
    const problems = (requested.shortNames ?? []).filter((s) => !ours.has(s)).map((s) => takenBy(s, '', resources)).filter((p): p is string => p !== undefined);
    if (problems.length > 0) conflict('ShortNamesConflict', problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]`);
    else if (requested.shortNames === undefined) delete names.shortNames;
    else names.shortNames = requested.shortNames;
  }
  single('kind', kinds, 'KindConflict');
  single('listKind', kinds, 'ListKindConflict');
  if (requested.categories === undefined) delete names.categories;
  else names.categories = requested.categories;
  if (namesAccepted.status === 'Unknown') namesAccepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  // Established starts False; the establishing controller sees NamesAccepted and turns it True.
  let established: Condition = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  const old = findCondition(crd, 'Established');
  if (old) established = { type: 'Established', status: old.status, ...(old.reason !== undefined ? { reason: old.reason } : {}), ...(old.message !== undefined ? { message: old.message } : {}) };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { names, namesAccepted, established };
}

export class NamingController {
  private readonly queue: KeyQueue;
  /**
   * What this controller wrote and the informer has not shown yet (upstream's mutation cache): the
   * next definition synced must see the names just accepted, or two could accept the same one.
   */
  private readonly written = new Map<string, CustomResourceDefinition>();

  constructor(private readonly cache: ObjectCache, private readonly store: Store, logger: Logger) {
    // One definition at a time: two of a group asking for the same name must not both get it.
    this.queue = new KeyQueue((name) => this.sync(name), (name, err) => logger.warn('naming controller could not sync a CustomResourceDefinition', {
      name, err: err instanceof Error ? err.message : String(err),
    }), true);
  }

  start(): void {
    this.cache.subscribe((type, obj) => {
      const crd = obj as unknown as CustomResourceDefinition;
      // A definition that went frees its names for the others of its group.
      if (type === 'DELETED') {
        this.written.delete(crd.metadata?.name ?? '');
        this.requeueGroup(crd.spec?.group, crd.metadata?.name);
      } else this.queue.add(crd.metadata?.name ?? '');
    });
  }

  stop(): void {
    this.queue.stop();
  }

  /** The definitions as the informer holds them, each replaced by this controller's newer write of it. */
  private definitions(): CustomResourceDefinition[] {
    return (this.cache.list('') as unknown as CustomResourceDefinition[]).map((crd) => {
      const name = crd.metadata?.name ?? '';
      const mine = this.written.get(name);
      if (!mine) return crd;
      if (Number(mine.metadata?.resourceVersion ?? 0) > Number(crd.metadata?.resourceVersion ?? 0)) return mine;
      this.written.delete(name);
      return crd;
    });
  }

  private requeueGroup(group: string | undefined, except: string | undefined): void {
    for (const other of this.definitions()) {
      if (other.spec?.group === group && other.metadata?.name !== except) this.queue.add(other.metadata?.name ?? '');
    }
  }

  private async sync(name: string): Promise<void> {
    const all = this.definitions();
    const crd = all.find((d) => d.metadata?.name === name);
    if (!crd || sameNames(crd.spec.names, crd.status?.acceptedNames)) return;
    const wanted = namesAndConditions(crd, all);
    if (sameNames(crd.status?.acceptedNames, wanted.names) && sameCondition(findCondition(crd, 'NamesAccepted') as CustomResourceDefinitionCondition | undefined, wanted.namesAccepted as CustomResourceDefinitionCondition)) return;
    const written = await changeDefinition(this.store, name, (current) => {
      const { names, namesAccepted, established } = namesAndConditions(current, this.definitions());
      current.status = { ...current.status, acceptedNames: names as CustomResourceDefinitionNames };
      setCondition(current, namesAccepted);
      setCondition(current, established);
      return current;
    });
    if (!written) return;
    this.written.set(name, written);
    // Names accepted or released here may settle another definition of the group.
    this.requeueGroup(crd.spec.group, name);
  }
}
