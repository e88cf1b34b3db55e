// Compilation of a policy's expressions with variable composition (upstream's CompositedCompiler):
// variables compile in order, each in an environment where `variables` holds the ones before it,
// typed by what their expressions yield (primitives, lists and maps kept; anything else dyn); the
// other expressions then compile with every variable declared. Errors are worded as upstream's
// (`compilation failed: ERROR: ...`, `must evaluate to bool`).
import type { Environment } from '@marcbachmann/cel-js';
import { compile, type Program } from '../compile.js';
import type { DeclType } from '../types.js';
import { admissionEnvironment } from './environment.js';

/** A compiled expression, or why it has none (upstream's apiservercel.Error detail). */
export type Compiled = { program: Program; error?: undefined } | { program?: undefined; error: string };

export interface CompositionOptions {
  /** The policy has a paramKind: `params` is declared. */
  params: boolean;
  /** Types of object and params for type checking; dyn otherwise. */
  objectType?: DeclType;
  paramsType?: DeclType;
  typeNamePrefix?: string;
}

const simpleTypes = new Set(['bool', 'int', 'uint', 'double', 'string', 'bytes', 'null_type', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

/** The type `variables.<name>` has for a variable whose expression yields `t` (upstream's convertCelTypeToDeclType). */
export function variableType(t: string): string {
  if (simpleTypes.has(t)) return t;
  const list = /^list<(.*)>$/.exec(t);
  if (list) return `list<${variableType(list[1]!)}>`;
  const map = /^map<([^,]+), (.*)>$/.exec(t);
  if (map) return `map<${variableType(map[1]!)}, ${variableType(map[2]!)}>`;
  return 'dyn';
}

/** The CEL spelling of the types an expression may yield, in upstream's messages. */
function mustEvaluateTo(types: readonly string[]): string {
  return types.length === 1 ? `must evaluate to ${types[0]}` : `must evaluate to one of [${types.join(' ')}]`;
}

/** Compiles `expression` in `env`, refusing results not of `returnTypes` (any result when absent). */
export function compileExpression(env: Environment, expression: string, returnTypes?: readonly string[]): Compiled {
  const r = compile(env, expression);
  if (r.error !== undefined) return { error: `compilation failed: ${r.error}` };
  // The evaluator names the type of null `null`; cel-go's messages call it null_type.
  const outputType = r.program.outputType === 'null' ? 'null_type' : r.program.outputType;
  if (returnTypes && !returnTypes.includes(outputType) && outputType !== 'dyn') return { error: mustEvaluateTo(returnTypes) };
  return { program: r.program };
}

/** One policy's compiler: variables first (addVariable, in order), then any other expression. */
export class CompositionCompiler {
  private readonly fields: [string, string][] = [];
  private readonly envs = new Map<string, Environment>();

  constructor(private readonly opts: CompositionOptions) {}

  /** The environment with the variables added so far, with or without `authorizer`. */
  env(authorizer: boolean): Environment {
    const key = `${authorizer}/${this.fields.length}`;
    let env = this.envs.get(key);
    if (!env) {
      // Without variables `variables` is not declared at all, as upstream's stateless compiler has it.
      env = admissionEnvironment({ ...this.opts, authorizer, ...(this.fields.length > 0 ? { variables: this.fields } : {}) });
      this.envs.set(key, env);
    }
    return env;
  }

  /** Compiles the next variable; later expressions read it as `variables.<name>` with the type it yields. */
  addVariable(name: string, expression: string): Compiled {
    const r = compileExpression(this.env(true), expression);
    // A variable that does not compile is still declared (dyn), so expressions reading it compile.
    this.fields.push([name, r.program ? variableType(r.program.outputType) : 'dyn']);
    return r;
  }

  /** Compiles an expression that reads every variable added so far. */
  compile(expression: string, opts: { authorizer: boolean; returnTypes?: readonly string[] }): Compiled {
    return compileExpression(this.env(opts.authorizer), expression, opts.returnTypes);
  }
}

/** Why `expression` cannot be a match condition (a webhook's, or a policy's with `params`); undefined when it compiles to a bool. */
export function matchConditionCompileError(expression: string, opts: { params?: boolean } = {}): string | undefined {
  return compileExpression(admissionEnvironment({ authorizer: true, params: opts.params ?? false }), expression, ['bool']).error;
}
