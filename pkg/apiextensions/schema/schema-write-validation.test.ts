import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateCustomResourceSchema, type SchemaValidationOptions } from './schema-write-validation.js';
import { upstreamCases, type ExpectedError } from './testdata/upstream-schema-validation-cases.js';

/** Upstream's matching: every expected error found once (type, field, text), and nothing else. */
function assertMatches(got: FieldError[], expected: ExpectedError[], name: string): void {
  const seen = new Array<boolean>(got.length).fill(false);
  for (const e of expected) {
    const i = got.findIndex((g, j) => !seen[j] && g.type === e.type && g.field === e.field && (e.contains === undefined || errorMessage(g).includes(e.contains)));
    assert.ok(i >= 0, `${name}: expected ${e.type} at ${e.field}${e.contains ? ` containing ${JSON.stringify(e.contains)}` : ''}; got:\n${got.map(errorMessage).join('\n')}`);
    seen[i] = true;
  }
  const extra = got.filter((_, j) => !seen[j]);
  assert.deepEqual(extra.map(errorMessage), [], `${name}: unexpected errors`);
}

test('upstream TestValidateCustomResourceDefinitionValidation cases', () => {
  for (const c of upstreamCases.cases) {
    // Upstream runs these with validationOptions' zero values unless a case sets them.
    const opts: SchemaValidationOptions = {
      statusSubresource: c.statusEnabled,
      requireStructuralSchema: false, requirePrunedDefaults: false, requireAtomicSetType: false,
      requireMapListKeysMapSetValidation: false, requireValidPropertyType: false, allowDefaults: false,
      ...c.opts,
    };
    const got = c.schema === null ? [] : validateCustomResourceSchema(Path.root('spec.validation'), c.schema, opts);
    assertMatches(got, c.expected, c.name);
  }
});

test('upstream TestValidateCustomResourceDefinition cases, schema errors', () => {
  for (const c of upstreamCases.crdCases) {
    const got = c.schemas.flatMap((s) => validateCustomResourceSchema(Path.root(s.path), s.schema, { statusSubresource: s.statusEnabled }));
    assertMatches(got, c.expected, c.name);
  }
});
