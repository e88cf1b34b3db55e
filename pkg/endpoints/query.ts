// Query parameters of API requests, checked once at the edge.
import { newBadRequest } from '../runtime/errors.js';

export class Query {
  constructor(private readonly params: URLSearchParams) {}

  /** The first value of a parameter, or undefined. */
  str(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  has(name: string): boolean {
    return this.params.has(name);
  }

  all(name: string): string[] {
    return this.params.getAll(name);
  }

  /** A non-negative integer parameter; anything else is a 400. */
  int(name: string): number | undefined {
    const v = this.str(name);
    if (v === undefined || v === '') return undefined;
    if (!/^-?\d+$/.test(v)) throw newBadRequest(`invalid value for ${name}: ${JSON.stringify(v)}: must be an integer`);
    return Number(v);
  }

  bool(name: string): boolean {
    const v = this.str(name);
    if (v === undefined) return false;
    if (v === '' || v === '1' || v.toLowerCase() === 'true') return true;
    if (v === '0' || v.toLowerCase() === 'false') return false;
    throw newBadRequest(`invalid value for ${name}: ${JSON.stringify(v)}: must be a boolean`);
  }

  /** `pretty`, which upstream treats as on for any value but false/0. */
  pretty(): boolean {
    const v = this.str('pretty');
    return v !== undefined && v !== 'false' && v !== '0';
  }

  /** dryRun: empty or `All`; anything else is a 400. */
  dryRun(): boolean {
    const values = this.all('dryRun');
    for (const v of values) {
      if (v !== 'All' && v !== '') throw newBadRequest(`Invalid dryRun value: ${JSON.stringify(v)}: supported values: "All"`);
    }
    return values.includes('All');
  }

  /** fieldValidation: Ignore, Warn (default) or Strict. */
  fieldValidation(): 'Ignore' | 'Warn' | 'Strict' {
    const v = this.str('fieldValidation');
    if (v === undefined || v === '') return 'Warn';
    if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
    throw newBadRequest(`fieldValidation: Unsupported value: ${JSON.stringify(v)}: supported values: "Ignore", "Strict", "Warn"`);
  }
}
