// One ValidatingAdmissionPolicy compiled and evaluated (upstream's compilePolicy and validator):
// variables composed in order; matchConditions first (a false one skips the policy, an error
// follows failurePolicy); then every validation within the runtime budget, the messageExpressions
// within what is left of it, and the audit annotations within a budget of their own. Each
// validation yields a decision: admit, deny (with its message and reason), or an evaluation error
// that failurePolicy turns into a denial (Fail) or an admission (Ignore).
import type { ValidatingAdmissionPolicySpec } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import { CompositionCompiler, type Compiled } from '../../../cel/admission/composition.js';
import { describeVariables, LazyVariables, type CompiledVariable } from '../../../cel/admission/variables.js';
import { EvalError } from '../../../cel/compile.js';
import { estimateCost, valueSizes } from '../../../cel/cost.js';
import { maxEvaluatedMessageExpressionSizeBytes, perCallLimit, runtimeCostBudget } from '../../../cel/limits.js';
import { UnsignedInt } from '../../../cel/values.js';
import { MatchConditionMatcher } from '../../cel/match-conditions.js';

export type FailurePolicy = 'Fail' | 'Ignore';

/** What one validation decided (upstream's PolicyDecision). */
export interface PolicyDecision {
  action: 'admit' | 'deny';
  /** 'error' when the validation could not be evaluated. */
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  /** The Status reason of a denial: Invalid unless the validation names another. */
  reason?: string;
}

/** What one audit annotation yielded (upstream's PolicyAuditAnnotation). */
export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'exclude' | 'error';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

/** The variables every policy expression reads, without `variables` (added per evaluation). */
export interface PolicyActivation {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  params: unknown;
  namespaceObject: unknown;
  authorizer: unknown;
}

type EvalResult = { value: unknown } | { error: string } | undefined;

const budgetExhausted = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** CEL's name of the type of a value, for audit annotations of the wrong type. */
function celTypeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

export class PolicyValidator {
  private readonly failurePolicy: FailurePolicy;
  private readonly variables: CompiledVariable[];
  private readonly matcher: MatchConditionMatcher | undefined;
  private readonly validations: Compiled[];
  private readonly messages: (Compiled | undefined)[];
  private readonly annotations: Compiled[];

  constructor(private readonly spec: ValidatingAdmissionPolicySpec) {
    this.failurePolicy = spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';
    const params = spec.paramKind !== undefined && spec.paramKind !== null;
    const compiler = new CompositionCompiler({ params });
    this.variables = describeVariables((spec.variables ?? []).map((v) => ({ name: v.name, compiled: compiler.addVariable(v.name, v.expression) })));
    this.matcher = (spec.matchConditions ?? []).length > 0 ? new MatchConditionMatcher(spec.matchConditions!, this.failurePolicy, { params }) : undefined;
    this.validations = (spec.validations ?? []).map((v) => compiler.compile(v.expression, { authorizer: true, returnTypes: ['bool'] }));
    this.messages = (spec.validations ?? []).map((v) => (v.messageExpression ? compiler.compile(v.messageExpression, { authorizer: false, returnTypes: ['string'] }) : undefined));
    this.annotations = (spec.auditAnnotations ?? []).map((a) => compiler.compile(a.valueExpression, { authorizer: true, returnTypes: ['string', 'null_type'] }));
  }

  private errorDecision(message: string): PolicyDecision {
    return { action: this.failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message };
  }

  /** The decisions of every validation and the audit annotations for one request and one parameter. */
  async validate(input: PolicyActivation): Promise<ValidateResult> {
    if (this.matcher) {
      // Match conditions see no namespaceObject, as upstream's matcher is given none.
      const m = await this.matcher.match({ ...input, namespaceObject: null });
      if ('error' in m) return { decisions: [this.errorDecision(m.error)], auditAnnotations: [] };
      if (!m.matches) return { decisions: [], auditAnnotations: [] };
    }
    const validations = this.spec.validations ?? [];
    const evaluated = await this.evaluateAll(this.validations, validations.map((v) => v.expression), input, runtimeCostBudget);
    if ('error' in evaluated) return { decisions: [this.errorDecision(evaluated.error)], auditAnnotations: [] };
    const messages = await this.evaluateAll(this.messages, validations.map((v) => v.messageExpression ?? ''), input, evaluated.remaining);
    const decisions = evaluated.results.map((r, i): PolicyDecision => {
      const v = validations[i]!;
      if (r && 'error' in r) return this.errorDecision(r.error);
      if ('error' in messages) return this.errorDecision(`failed messageExpression: ${messages.error}`);
      if (r?.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
      const m = messages.results[i];
      let message = m && 'value' in m && typeof m.value === 'string' ? m.value.trim() : '';
      // An overlong or multi-line message is dropped, as upstream drops it.
      if (Buffer.byteLength(message) > maxEvaluatedMessageExpressionSizeBytes || message.includes('\n')) message = '';
      if (message === '') message = (v.message ?? '').trim();
      if (message === '') message = `failed expression: ${v.expression.trim()}`;
      return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
    });
    const annotations = this.spec.auditAnnotations ?? [];
    const audited = await this.evaluateAll(this.annotations, annotations.map((a) => a.valueExpression), input, runtimeCostBudget);
    if ('error' in audited) return { decisions: [this.errorDecision(audited.error)], auditAnnotations: [] };
    const onError = this.failurePolicy === 'Ignore' ? 'exclude' : 'error';
    const auditAnnotations = audited.results.map((r, i): AuditAnnotationResult => {
      const key = annotations[i]!.key;
      if (!r) return { key, action: 'exclude' };
      if ('error' in r) return { key, action: onError, error: r.error };
      if (r.value === null) return { key, action: 'exclude' };
      if (typeof r.value !== 'string') {
        return {
          key, action: 'error',
          error: `valueExpression '${annotations[i]!.valueExpression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`,
        };
      }
      const value = r.value.trim();
      return value === '' ? { key, action: 'exclude' } : { key, action: 'publish', value };
    });
    return { decisions, auditAnnotations };
  }

  /**
   * Evaluates each program in turn within `budget` (upstream's filter ForInput): the results, or
   * the error that stopped them all (the budget ran out). Each evaluation reads its own `variables`.
   */
  private async evaluateAll(programs: readonly (Compiled | undefined)[], expressions: readonly string[], input: PolicyActivation, budget: number): Promise<{ results: EvalResult[]; remaining: number } | { error: string }> {
    const base = { ...input } as Record<string, unknown>;
    const variables = new LazyVariables(this.variables, base);
    const activation = { ...base, variables: variables.value };
    const results: EvalResult[] = [];
    let remaining = budget;
    for (let i = 0; i < programs.length; i++) {
      const compiled = programs[i];
      if (!compiled) {
        results.push(undefined);
        continue;
      }
      if (!compiled.program) {
        results.push({ error: `compilation error: ${compiled.error}` });
        continue;
      }
      const program = compiled.program;
      await variables.prepare(program);
      // The cost is bounded by the estimate over the actual sizes of the values read.
      const estimated = estimateCost(program.ast, valueSizes(variables.sizeRoots(base)), { runtime: true }).max;
      const cost = Math.min(estimated, perCallLimit);
      let result: EvalResult;
      try {
        if (estimated > perCallLimit) throw new EvalError('operation cancelled: actual cost limit exceeded');
        result = { value: await program.evaluate(activation) };
      } catch (e) {
        result = { error: `expression '${expressions[i]}' resulted in error: ${e instanceof Error ? e.message : String(e)}` };
      }
      const variablesCost = variables.takeCost();
      if (variablesCost > remaining) return { error: budgetExhausted };
      remaining -= variablesCost;
      if (cost > remaining) return { error: budgetExhausted };
      remaining -= cost;
      results.push(result);
    }
    return { results, remaining };
  }
}
