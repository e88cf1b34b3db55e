// Compiling a CEL expression in an environment, and running it, with errors worded as cel-go's:
// a compile error reads `ERROR: <input>:1:5: undeclared reference to 'x' (in container '')`
// followed by the line and a caret; a runtime error as cel-go's error value (`no such key: x`).
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from './library/errors.js';

/** A type-checked expression ready to run. */
export interface Program {
  readonly expression: string;
  readonly ast: ASTNode;
  /** The checked result type, e.g. `bool`, `string`, `list<int>`. */
  readonly outputType: string;
  /** Whether the expression reads the variable `name`. */
  references(name: string): boolean;
  /** The value, or throws an EvalError; a promise when an asynchronous function (authorizer checks) ran. */
  evaluate(vars: Record<string, unknown>): unknown;
}

export type CompileResult = { program: Program; error?: undefined } | { program?: undefined; error: string };

/** An evaluation error, worded as cel-go's error value. */
export class EvalError extends Error {}

interface LibError extends Error {
  code?: string;
  summary?: string;
  node?: { pos?: number; start?: number };
  range?: { start: number };
}

function position(expression: string, offset: number): { line: number; col: number; text: string } {
  const before = expression.slice(0, offset).split('\n');
  const line = before.length;
  return { line, col: [...before[line - 1]!].length, text: expression.split('\n')[line - 1] ?? '' };
}

/** The first line of the evaluator's message, without its source excerpt. */
const summary = (e: LibError) => (e.summary ?? e.message).split('\n')[0]!.trim();

/** cel-go's wording of what the evaluator reported. */
function celGoMessage(e: LibError, expression: string): string {
  const s = summary(e);
  let m: RegExpExecArray | null;
  if (e.name === 'ParseError') {
    const tokens: Record<string, string> = { RPAREN: ')', RBRACKET: ']', RBRACE: '}', LPAREN: '(', COLON: ':', COMMA: ',' };
    const missing = /^Expected ([A-Z]+), got EOF$/.exec(s);
    if (missing && tokens[missing[1]!]) return `Syntax error: missing '${tokens[missing[1]!]}' at '<EOF>'`;
    if (/^Unterminated string/.test(s)) return `Syntax error: token recognition error at: '${expression.slice(offsetOf(e))}'`;
    return `Syntax error: ${s.replace(/^Unexpected token: EOF$/, "mismatched input '<EOF>' expecting <expression>")}`;
  }
  if ((m = /^Unknown variable: (.*)$/.exec(s))) return `undeclared reference to '${m[1]}' (in container '')`;
  if ((m = /^No such key: (.*)$/i.exec(s))) return `undefined field '${m[1]}'`;
  if ((m = /^no such overload: (.+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/.exec(s))) {
    const op = m[2] === 'in' ? '@in' : `_${m[2]}_`;
    return `found no matching overload for '${op}' applied to '(${m[1]}, ${m[3]})'`;
  }
  if ((m = /^found no matching overload for '(?:(.+)\.)?([A-Za-z_][A-Za-z0-9_]*)\((.*)\)'$/.exec(s))) {
    return m[1] ? `found no matching overload for '${m[2]}' applied to '${m[1]}.(${m[3]})'` : `found no matching overload for '${m[2]}' applied to '(${m[3]})'`;
  }
  return s;
}

/** The text of cel-go's Issues.String() for one error at `offset`. */
function issue(expression: string, offset: number, message: string): string {
  const p = position(expression, offset);
  return `ERROR: <input>:${p.line}:${p.col + 1}: ${message}\n | ${p.text}\n | ${'.'.repeat(p.col)}^`;
}

function offsetOf(e: LibError): number {
  return e.range?.start ?? e.node?.start ?? e.node?.pos ?? 0;
}

/** Where cel-go places a check error: at the `.` of a field selection, where the evaluator points at the field's name. */
function checkOffset(expression: string, e: LibError, message: string): number {
  const offset = offsetOf(e);
  if (!message.startsWith('undefined field ')) return offset;
  const dot = expression.lastIndexOf('.', offset);
  return dot >= 0 && expression.slice(dot + 1, offset).trim() === '' ? dot : offset;
}

function referencedNames(ast: ASTNode, out = new Set<string>()): Set<string> {
  if (ast.op === 'id') out.add(ast.args as string);
  const visit = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x !== null && typeof x === 'object' && 'op' in x) referencedNames(x as ASTNode, out);
  };
  visit(ast.args);
  return out;
}

/** The runtime error's text as cel-go reports it. */
export function evalErrorMessage(e: unknown): string {
  if (e instanceof CelRuntimeError) return e.message;
  const err = e as LibError;
  const s = summary(err);
  if (err.cause instanceof CelRuntimeError) return err.cause.message;
  let m: RegExpExecArray | null;
  if ((m = /^No such key: (.*)$/i.exec(s))) return `no such key: ${m[1]}`;
  if (/^division by zero$/.test(s)) return 'division by zero';
  if (/^integer overflow/.test(s)) return 'integer overflow';
  if ((m = /^found no matching overload for '(.*)'$/.exec(s))) return `no such overload`;
  return s;
}

/** Parses and type-checks `expression` in `env`; the error is cel-go's Issues text. */
export function compile(env: Environment, expression: string): CompileResult {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(expression);
  } catch (e) {
    const err = e as LibError;
    return { error: issue(expression, offsetOf(err), celGoMessage(err, expression)) };
  }
  const checked = parsed.check();
  if (!checked.valid) {
    const err = checked.error as LibError;
    const message = celGoMessage(err, expression);
    return { error: issue(expression, checkOffset(expression, err, message), message) };
  }
  const names = referencedNames(parsed.ast);
  const outputType = checked.type === 'list' ? 'list<dyn>' : checked.type === 'map' ? 'map<dyn, dyn>' : checked.type ?? 'dyn';
  return {
    program: {
      expression,
      ast: parsed.ast,
      outputType,
      references: (name) => names.has(name),
      evaluate: (vars) => {
        const wrap = (e: unknown): never => {
          throw new EvalError(evalErrorMessage(e));
        };
        try {
          const r = parsed(vars);
          return r instanceof Promise ? r.catch(wrap) : r;
        } catch (e) {
          return wrap(e);
        }
      },
    },
  };
}
