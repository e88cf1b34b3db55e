// A shallow well-formedness check of CEL expressions (webhook matchConditions). The server does
// not compile or evaluate CEL; it refuses only what cannot be an expression at all: unclosed
// string literals and unbalanced brackets. Messages take the shape of upstream's compiler errors
// (`compilation failed: ERROR: <input>:<line>:<column>: Syntax error: ...`).

const closing: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Why `expression` is not a well-formed CEL expression, or undefined when it may be one. */
export function celSyntaxProblem(expression: string): string | undefined {
  const open: { ch: string; at: number }[] = [];
  const where = (i: number): string => {
    const before = expression.slice(0, i).split('\n');
    return `${before.length}:${before[before.length - 1]!.length}`;
  };
  const fail = (i: number, what: string) => `compilation failed: ERROR: <input>:${where(i)}: Syntax error: ${what}`;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (c === '"' || c === "'") {
      // Raw strings (r"...") keep backslashes; triple quotes may span lines.
      const raw = i > 0 && /[rR]/.test(expression[i - 1]!) && (i < 2 || !/[A-Za-z0-9_]/.test(expression[i - 2]!));
      const quote = expression.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      let closed = false;
      while (j < expression.length) {
        if (!raw && expression[j] === '\\') {
          j += 2;
          continue;
        }
        if (quote.length === 1 && expression[j] === '\n') break;
        if (expression.startsWith(quote, j)) {
          closed = true;
          break;
        }
        j++;
      }
      if (!closed) return fail(i, 'token recognition error: unterminated string literal');
      i = j + quote.length - 1;
      continue;
    }
    if (c in closing) {
      open.push({ ch: c, at: i });
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      const top = open.pop();
      if (!top || closing[top.ch] !== c) return fail(i, `extraneous input '${c}'`);
    }
  }
  const unclosed = open.pop();
  if (unclosed) return fail(expression.length, `missing '${closing[unclosed.ch]!}' at '<EOF>'`);
  return undefined;
}
