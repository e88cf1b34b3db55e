// An apply that would change fields other managers own: upstream's 409 Conflict Status, with one
// FieldManagerConflict cause per field and the message clients parse.
import { StatusError } from '../runtime/errors.js';
import { printManager } from './managed-fields.js';
import { pathToString, type Path } from './path.js';

export interface Conflict {
  /** The manager identifier (see managerIdentifier) of the field's current owner. */
  readonly manager: string;
  readonly path: Path;
}

export class ApplyConflictError extends StatusError {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(409, 'Conflict', conflictMessage(conflicts), {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.manager)}`,
        field: pathToString(c.path),
      })),
    });
    this.name = 'ApplyConflictError';
  }
}

/**
 * `Apply failed with 1 conflict: conflict with "m": .spec.x`, or for several, each manager (in
 * identifier order) with its fields: `Apply failed with 2 conflicts: conflicts with "m":\n- .a\n- .b`.
 */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathToString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager) ?? [];
    paths.push(c.path);
    byManager.set(c.manager, paths);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(byBytes)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathToString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
