// An object that cannot be read against its schema's apply rules: a map list item without its
// keys, a duplicate key in an applied configuration, a set holding objects. The wording and the
// path prefix are upstream's (`.spec.ports: duplicate entries for key [port=80,protocol="TCP"]`).
import { StatusError } from '../runtime/errors.js';
import { pathToString, type Path } from './path.js';

export class TypedObjectError extends StatusError {
  constructor(readonly path: Path, readonly detail: string) {
    const where = pathToString(path);
    // Upstream answers these with a 500; bad input is a 400 here (ARCHITECTURE section 4).
    super(400, 'BadRequest', where === '' ? detail : `${where}: ${detail}`);
    this.name = 'TypedObjectError';
  }
}
