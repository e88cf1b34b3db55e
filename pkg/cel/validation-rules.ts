// CRD validation rules (`x-kubernetes-validations`) as upstream's apiextensions schema/cel package
// applies them, as two pure functions the CRD registry calls:
//  - compileValidationRules(schema, path): at CRD write, every rule compiled against the type of
//    the schema node it sits on (`self`, `oldSelf`), its message rules checked, and its estimated
//    cost held to StaticEstimatedCostLimit per rule and StaticEstimatedCRDCostLimit for the whole
//    schema (cost times how many times the node can occur) -> field errors on the CRD.
//  - validateWithRules(schema, obj, oldObj): at custom resource write, every rule evaluated on every
//    node it sits on (transition rules only where an old value correlates) -> field errors on the
//    object, with upstream's messages, reasons and paths.
import { Optional, type Environment } from '@marcbachmann/cel-js';
import { forbidden, invalid, notSupported, required, type FieldError } from '../runtime/field-errors.js';
import { compile, EvalError, type Program } from './compile.js';
import { declTypeSizes, estimateCost, valueSizes } from './cost.js';
import { newEnvironment } from './environment.js';
import { perCallLimit, runtimeCostBudget } from './limits.js';
import { maxCardinality, registerDeclType, schemaDeclType, toCelValue, type DeclType, type Schema, type ValidationRule } from './types.js';

/** The largest estimated cost of one rule (apiextensions' StaticEstimatedCostLimit). */
export const staticEstimatedCostLimit = 10_000_000;
/** The largest estimated cost of all rules of a schema (StaticEstimatedCRDCostLimit). */
export const staticEstimatedCRDCostLimit = 100_000_000;
const supportedReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  error?: string;
  messageProgram?: Program;
  messageError?: string;
  usesOldSelf: boolean;
  maxCost: number;
  messageMaxCost: number;
}

let typeCounter = 0;

/** Compiles the rules of one schema node, in an environment where self and oldSelf have its type. */
function compileNode(s: Schema, declType: DeclType): CompiledRule[] {
  const rules = s['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return [];
  const envs = new Map<boolean, { env: Environment; sizes: ReturnType<typeof declTypeSizes> }>();
  const envFor = (optional: boolean) => {
    let e = envs.get(optional);
    if (!e) {
      const env = newEnvironment();
      const name = registerDeclType(env, declType, `selfType${++typeCounter}`);
      env.registerVariable('self', name);
      env.registerVariable('oldSelf', optional ? `optional<${name}>` : name);
      e = { env, sizes: declTypeSizes({ self: declType, oldSelf: declType }) };
      envs.set(optional, e);
    }
    return e;
  };
  return rules.map((rule) => {
    const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, messageMaxCost: 0 };
    if (rule.rule.trim() === '') return out;
    const { env, sizes } = envFor(rule.optionalOldSelf === true);
    const r = compile(env, rule.rule);
    if (r.error !== undefined) return { ...out, error: `compilation failed: ${r.error}` };
    if (r.program.outputType !== 'bool') return { ...out, error: 'cel expression must evaluate to a bool' };
    out.program = r.program;
    out.usesOldSelf = r.program.references('oldSelf');
    out.maxCost = estimateCost(r.program.ast, sizes).max;
    if (rule.messageExpression) {
      const m = compile(env, rule.messageExpression);
      if (m.error !== undefined) out.messageError = `messageExpression compilation failed: ${m.error}`;
      else if (m.program.outputType !== 'string') out.messageError = 'messageExpression must evaluate to a string';
      else {
        out.messageProgram = m.program;
        out.messageMaxCost = estimateCost(m.program.ast, sizes).max;
      }
    }
    return out;
  });
}

function costMessage(what: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

const hasNewline = (s: string) => /[\n\r]/.test(s);

function maxElementsOf(s: Schema): number | undefined {
  if (s.type === 'array') return s.maxItems;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return s.maxProperties;
  return 1;
}

/**
 * The CRD-write checks of every `x-kubernetes-validations` rule under `root` (the schema at
 * `path`, e.g. `spec.versions[0].schema.openAPIV3Schema`): compilation, message rules, reasons,
 * per-rule and whole-schema estimated cost. Empty when every rule may be stored.
 */
export function compileValidationRules(root: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const costs: { path: string; cost: number }[] = [];
  const walk = (s: Schema, p: string, cardinality: number | undefined, isRoot: boolean) => {
    const rules = s['x-kubernetes-validations'] ?? [];
    const vp = `${p}.x-kubernetes-validations`;
    rules.forEach((rule, i) => {
      const rp = `${vp}[${i}]`;
      if (rule.rule.trim() === '') errs.push(required(`${rp}.rule`, 'rule is not specified'));
      if (rule.message !== undefined && rule.message.trim() === '') errs.push(invalid(`${rp}.message`, rule.message, 'message must be non-empty if specified'));
      else if (rule.message !== undefined && hasNewline(rule.message)) errs.push(invalid(`${rp}.message`, rule.message, 'message must not contain line breaks'));
      else if (rule.message === undefined && hasNewline(rule.rule)) errs.push(required(`${rp}.message`, 'message must be specified if rule contains line breaks'));
      if (rule.messageExpression !== undefined && rule.messageExpression.length > 0 && rule.messageExpression.trim() === '') errs.push(required(`${rp}.messageExpression`, 'messageExpression must be non-empty if specified'));
      if (rule.reason !== undefined && !supportedReasons.includes(rule.reason)) errs.push(notSupported(`${rp}.reason`, rule.reason, supportedReasons));
    });
    const declType = schemaDeclType(s, isRoot || s['x-kubernetes-embedded-resource'] === true);
    if (rules.length > 0 && declType && errs.length === 0) {
      compileNode(s, declType).forEach((c, i) => {
        const rp = `${vp}[${i}]`;
        if (c.error) errs.push(invalid(`${rp}.rule`, c.rule, c.error));
        const card = cardinality ?? maxCardinality(declType.minSize);
        const cost = c.maxCost * card;
        if (c.program) {
          if (cost > staticEstimatedCostLimit) errs.push(forbidden(`${rp}.rule`, costMessage('estimated rule cost', cost, staticEstimatedCostLimit)));
          costs.push({ path: `${rp}.rule`, cost });
        }
        if (c.messageError) errs.push(invalid(`${rp}.messageExpression`, c.rule, c.messageError));
        else if (c.messageProgram) {
          if (c.messageMaxCost > staticEstimatedCostLimit) errs.push(forbidden(`${rp}.messageExpression`, costMessage('estimated messageExpression cost', c.messageMaxCost, staticEstimatedCostLimit)));
          costs.push({ path: `${rp}.messageExpression`, cost: c.messageMaxCost });
        }
        if (!c.usesOldSelf && c.program && c.rule.optionalOldSelf !== undefined) errs.push(invalid(`${rp}.optionalOldSelf`, c.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      });
    }
    const childCard = cardinality === undefined ? undefined : (() => {
      const m = maxElementsOf(s);
      return m === undefined ? undefined : cardinality * m;
    })();
    for (const [name, prop] of Object.entries(s.properties ?? {})) walk(prop, `${p}.properties[${name}]`, childCard, false);
    if (s.items) walk(s.items, `${p}.items`, childCard, false);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${p}.additionalProperties`, childCard, false);
  };
  walk(root, path, 1, true);
  const total = costs.reduce((a, c) => a + c.cost, 0);
  if (total > staticEstimatedCRDCostLimit) {
    for (const c of [...costs].sort((a, b) => b.cost - a.cost).slice(0, 4)) {
      errs.push(forbidden(c.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    }
    errs.push(forbidden(path, costMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, staticEstimatedCRDCostLimit)));
  }
  return errs;
}

const compiledCache = new WeakMap<Schema, CompiledRule[]>();

/**
 * The errors of `obj` (and, on update, `oldObj`) against every `x-kubernetes-validations` rule of
 * `schema` (a CRD version's structural schema, already validated by compileValidationRules),
 * with paths from the object's root. Asynchronous only because rules may call functions that are.
 */
export async function validateWithRules(schema: Schema, obj: unknown, oldObj?: unknown): Promise<FieldError[]> {
  const errs: FieldError[] = [];
  let remaining = runtimeCostBudget;
  let exhausted = false;
  const visit = async (s: Schema, value: unknown, old: unknown, path: string, isRoot: boolean): Promise<void> => {
    if (exhausted || value === undefined || value === null) return;
    const rules = s['x-kubernetes-validations'] ?? [];
    if (rules.length > 0) {
      const declType = schemaDeclType(s, isRoot || s['x-kubernetes-embedded-resource'] === true);
      if (declType) {
        let compiled = compiledCache.get(s);
        if (!compiled) compiledCache.set(s, compiled = compileNode(s, declType));
        const self = toCelValue(value, declType);
        const oldSelf = old === undefined || old === null ? undefined : toCelValue(old, declType);
        for (const c of compiled) {
          if (!c.program) continue;
          if (c.usesOldSelf && oldSelf === undefined && c.rule.optionalOldSelf !== true) continue;
          const vars: Record<string, unknown> = { self };
          if (c.usesOldSelf) vars.oldSelf = c.rule.optionalOldSelf ? optionalOf(oldSelf) : oldSelf;
          const cost = estimateCost(c.program.ast, valueSizes({ self: value, oldSelf: old }), { runtime: true }).max;
          if (cost > remaining) {
            errs.push(invalid(path || '<nil>', s.type ?? '', 'validation failed due to running out of cost budget, no further validation rules will be run'));
            exhausted = true;
            return;
          }
          remaining -= cost;
          const where = c.rule.fieldPath ? `${path}${c.rule.fieldPath.startsWith('[') ? '' : '.'}${c.rule.fieldPath.replace(/^\./, '')}`.replace(/^\./, '') : path;
          let ok: unknown;
          try {
            if (cost > perCallLimit) throw new EvalError('operation cancelled: actual cost limit exceeded');
            ok = await c.program.evaluate(vars);
          } catch (e) {
            errs.push(invalid(where, s.type ?? '', `${(e as Error).message}: evaluating rule: ${c.rule.rule}`));
            continue;
          }
          if (ok === true) continue;
          let message = c.rule.message ?? `failed rule: ${ruleText(c.rule.rule)}`;
          if (c.messageProgram) {
            try {
              const m = await c.messageProgram.evaluate(vars);
              if (typeof m === 'string' && m.trim() !== '' && !hasNewline(m) && m.length <= 5120) message = m;
            } catch {
              // A failing messageExpression leaves the static message, as upstream does.
            }
          }
          // Upstream reports the schema's type as the bad value, never the object itself.
          errs.push(errorFor(c.rule.reason, where, s.type ?? '', message));
        }
      }
    }
    if (value !== null && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const oo = old !== null && typeof old === 'object' ? old as Record<string, unknown> : undefined;
      if (Array.isArray(value) && s.items) {
        for (let i = 0; i < value.length; i++) {
          await visit(s.items, value[i], correlate(s, value[i], Array.isArray(old) ? old : undefined, i), `${path}[${i}]`, false);
        }
      } else if (!Array.isArray(value)) {
        for (const [k, prop] of Object.entries(s.properties ?? {})) await visit(prop, o[k], oo?.[k], path ? `${path}.${k}` : k, false);
        if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          for (const [k, v] of Object.entries(o)) await visit(s.additionalProperties, v, oo?.[k], `${path}[${k}]`, false);
        }
      }
    }
  };
  await visit(schema, obj, oldObj, '', true);
  return errs;
}

/** The old element an element of a list correlates with: only in map lists, by their keys (upstream's correlation). */
function correlate(s: Schema, item: unknown, old: unknown[] | undefined, _i: number): unknown {
  if (!old || s['x-kubernetes-list-type'] !== 'map') return undefined;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const key = (v: unknown) => JSON.stringify(keys.map((k) => (v as Record<string, unknown> | null)?.[k]));
  const k = key(item);
  return old.find((o) => key(o) === k);
}

function ruleText(rule: string): string {
  return rule.trim();
}

function optionalOf(v: unknown): unknown {
  return v === undefined ? OptionalNone : OptionalValue(v);
}

const OptionalNone = Optional.none();
const OptionalValue = (v: unknown) => Optional.of(v);

function errorFor(reason: string | undefined, path: string, value: unknown, message: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, message);
    case 'FieldValueRequired':
      return required(path, message);
    case 'FieldValueDuplicate':
      return { type: 'FieldValueDuplicate', field: path, detail: message, badValue: value, hasBadValue: true };
    default:
      return invalid(path, value, message);
  }
}
