// matchConditions (upstream's webhook/matchconditions matcher, also used by policies): every
// condition is evaluated; one false means no match; evaluation errors with no false follow the
// failure policy (Fail: the request fails; Ignore: no match). All conditions share the match
// conditions' runtime cost budget.
import { EvalError, type Program } from '../../cel/compile.js';
import { estimateCost, valueSizes } from '../../cel/cost.js';
import { compileExpression } from '../../cel/admission/composition.js';
import { admissionEnvironment } from '../../cel/admission/environment.js';
import { matchConditionsBudget, perCallLimit } from '../../cel/limits.js';


export interface MatchCondition {
  name: string;
  expression: string;
}

export type MatchResult = { matches: true } | { matches: false; failedCondition?: string } | { error: string };

interface Compiled {
  name: string;
  expression: string;
  program?: Program;
  error?: string;
}

/** Compiles every condition's expression once; compilation errors surface when evaluated. */
export class MatchConditionMatcher {
  private readonly conditions: Compiled[];

  constructor(conditions: readonly MatchCondition[], private readonly failurePolicy: 'Fail' | 'Ignore', opts: { params?: boolean } = {}) {
    const env = admissionEnvironment({ authorizer: true, params: opts.params ?? false });
    this.conditions = conditions.map((c) => ({ name: c.name, expression: c.expression, ...compileExpression(env, c.expression, ['bool']) }));
  }

  get empty(): boolean {
    return this.conditions.length === 0;
  }

  /** Whether the request matches, given the activation of admission's variables. */
  async match(vars: Record<string, unknown>): Promise<MatchResult> {
    const errors: string[] = [];
    let remaining = matchConditionsBudget;
    for (const c of this.conditions) {
      if (!c.program) {
        errors.push(c.error !== undefined ? `compilation error: ${c.error}` : 'unexpected internal error compiling expression');
        continue;
      }
      // The runtime cost is bounded by the estimate over the actual sizes of the values.
      const cost = estimateCost(c.program.ast, valueSizes(vars), { runtime: true }).max;
      if (cost > perCallLimit) {
        errors.push(`expression '${c.expression}' resulted in error: operation cancelled: actual cost limit exceeded`);
        continue;
      }
      if (cost > remaining) return this.onError('validation failed due to running out of cost budget, no further validation rules will be run');
      remaining -= cost;
      let result: unknown;
      try {
        result = await c.program.evaluate(vars);
      } catch (e) {
        errors.push(`expression '${c.expression}' resulted in error: ${e instanceof EvalError ? e.message : String(e)}`);
        continue;
      }
      if (result === false) return { matches: false, failedCondition: c.name };
      if (result !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload`);
    }
    if (errors.length > 0) return this.onError(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
    return { matches: true };
  }

  private onError(message: string): MatchResult {
    return this.failurePolicy === 'Fail' ? { error: message } : { matches: false };
  }
}
