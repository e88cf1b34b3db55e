// A policy's variables at evaluation time (upstream's composition context and lazy map): each
// variable is evaluated before the first expression that reads it runs, at most once per evaluation; an
// evaluation error (or a variable that did not compile) is the error of every expression reading
// it, which `||` and `&&` may absorb as CEL's error values are. Its cost is charged to the
// expression that first read it. The variables an expression reads are resolved just before it
// runs: those that ask the authorizer evaluate asynchronously, and the sizes of their values bound
// the expression's estimated cost.
import type { ASTNode } from '@marcbachmann/cel-js';
import { EvalError, type Program } from '../compile.js';
import { estimateCost, valueSizes } from '../cost.js';
import { CelRuntimeError } from '../library/errors.js';
import { perCallLimit } from '../limits.js';
import type { Compiled } from './composition.js';

/** One compiled variable of a policy. */
export interface CompiledVariable {
  name: string;
  compiled: Compiled;
  /** The variables it reads. */
  reads: ReadonlySet<string>;
}

/** The names of `variables.<name>` an expression reads. */
export function variablesRead(ast: ASTNode, out = new Set<string>()): Set<string> {
  if ((ast.op === '.' || ast.op === '.?')) {
    const [operand, field] = ast.args as [ASTNode, string];
    if (operand.op === 'id' && operand.args === 'variables') out.add(field);
  }
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x !== null && typeof x === 'object' && 'op' in x) variablesRead(x as ASTNode, out);
  };
  visit(ast.args);
  return out;
}

/** The variables of a policy, each compiled, with what they read (in declaration order). */
export function describeVariables(variables: readonly { name: string; compiled: Compiled }[]): CompiledVariable[] {
  return variables.map((v) => ({ ...v, reads: v.compiled.program ? variablesRead(v.compiled.program.ast) : new Set<string>() }));
}

type Result = { value: unknown } | { error: string };

/** The `variables` value of one evaluation, with the cost its variables have taken so far. */
export class LazyVariables {
  private readonly byName: ReadonlyMap<string, CompiledVariable>;
  private readonly results = new Map<string, Result>();
  private spent = 0;
  /** What expressions read as `variables`: a getter per variable. */
  readonly value: Record<string, unknown> = {};
  private readonly activation: Record<string, unknown>;

  constructor(variables: readonly CompiledVariable[], base: Record<string, unknown>) {
    this.byName = new Map(variables.map((v) => [v.name, v]));
    this.activation = { ...base, variables: this.value };
    for (const v of variables) {
      Object.defineProperty(this.value, v.name, { enumerable: true, get: () => this.read(v) });
    }
  }

  /** The cost of the variables evaluated since the last call (upstream's GetAndResetCost). */
  takeCost(): number {
    const c = this.spent;
    this.spent = 0;
    return c;
  }

  /** The values for cost estimates: the variables evaluated so far, the others unknown (never evaluated by reading). */
  sizeRoots(base: Record<string, unknown>): Record<string, unknown> {
    const known: Record<string, unknown> = {};
    for (const [name, r] of this.results) if ('value' in r) known[name] = r.value;
    return { ...base, variables: known };
  }

  /**
   * Evaluates the variables `program` reads (and those they read) before it runs: the asynchronous
   * ones must be, and the sizes of their values bound the program's estimated cost. An error is
   * kept until an expression reads the variable, so `||` and `&&` can still absorb it.
   */
  async prepare(program: Program): Promise<void> {
    for (const name of variablesRead(program.ast)) {
      const v = this.byName.get(name);
      if (v) await this.resolve(v);
    }
  }

  private async resolve(v: CompiledVariable): Promise<void> {
    if (this.results.has(v.name)) return;
    for (const name of v.reads) {
      const dep = this.byName.get(name);
      if (dep) await this.resolve(dep);
    }
    this.results.set(v.name, await this.evaluate(v));
  }

  private read(v: CompiledVariable): unknown {
    let r = this.results.get(v.name);
    if (!r) {
      const evaluated = this.evaluate(v);
      // prepare() resolved every variable an expression reads; one asking the authorizer cannot be waited for here.
      r = evaluated instanceof Promise ? { error: `composited variable "${v.name}" fails to evaluate: asynchronous evaluation` } : evaluated;
      this.results.set(v.name, r);
    }
    if ('error' in r) throw new CelRuntimeError(r.error);
    return r.value;
  }

  private evaluate(v: CompiledVariable): Result | Promise<Result> {
    const program = v.compiled.program;
    if (!program) return { error: `composited variable "${v.name}" fails to compile: ${v.compiled.error}` };
    const cost = estimateCost(program.ast, valueSizes(this.sizeRoots(this.activation)), { runtime: true }).max;
    this.spent += Math.min(cost, perCallLimit);
    const failed = (e: unknown): Result => ({ error: `composited variable "${v.name}" fails to evaluate: ${e instanceof Error ? e.message : String(e)}` });
    if (cost > perCallLimit) return failed(new EvalError('operation cancelled: actual cost limit exceeded'));
    try {
      const value = program.evaluate(this.activation);
      return value instanceof Promise ? value.then((x): Result => ({ value: x }), failed) : { value };
    } catch (e) {
      return failed(e);
    }
  }
}
