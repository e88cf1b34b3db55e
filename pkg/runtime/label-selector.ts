// Label selector strings as clients send them in `labelSelector`: equality (`a=b`, `a==b`,
// `a!=b`), set-based (`a in (x,y)`, `a notin (x)`, `a`, `!a`) and `a>1`/`a<1`, ANDed by commas.
import { newBadRequest } from './errors.js';

export type LabelOperator = 'in' | 'notin' | 'exists' | '!' | '=' | '!=' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  op: LabelOperator;
  values: string[];
}

export type LabelSelectorFn = (labels: Record<string, string> | undefined) => boolean;

const keyRe = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const valueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function bad(selector: string, why: string): never {
  throw newBadRequest(`unable to parse requirement: ${why} (in label selector "${selector}")`);
}

/** Parses a label selector string; throws 400 BadRequest when it is malformed. */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const reqs: LabelRequirement[] = [];
  let i = 0;
  const s = selector;
  const skipWs = () => { while (i < s.length && /\s/.test(s[i]!)) i++; };
  const readWord = () => {
    skipWs();
    const start = i;
    while (i < s.length && !/[\s,=!()<>]/.test(s[i]!)) i++;
    return s.slice(start, i);
  };
  const checkKey = (k: string) => {
    if (!k) bad(s, 'found empty key');
    if (!keyRe.test(k) || k.split('/').pop()!.length > 63) bad(s, `invalid label key "${k}"`);
  };
  const checkValue = (v: string) => {
    if (v.length > 63 || !valueRe.test(v)) bad(s, `invalid label value: "${v}"`);
  };
  skipWs();
  if (i >= s.length) return reqs;
  for (;;) {
    skipWs();
    let req: LabelRequirement;
    if (s[i] === '!') {
      i++;
      const key = readWord();
      checkKey(key);
      req = { key, op: '!', values: [] };
    } else {
      const key = readWord();
      checkKey(key);
      skipWs();
      const rest = s.slice(i);
      if (i >= s.length || s[i] === ',') {
        req = { key, op: 'exists', values: [] };
      } else if (rest.startsWith('==') || rest.startsWith('=') || rest.startsWith('!=')) {
        const op = rest.startsWith('!=') ? '!=' : '=';
        i += rest.startsWith('==') || rest.startsWith('!=') ? 2 : 1;
        const value = readWord();
        checkValue(value);
        req = { key, op, values: [value] };
      } else if (rest.startsWith('>') || rest.startsWith('<')) {
        i++;
        const value = readWord();
        if (!/^-?\d+$/.test(value)) bad(s, `for 'Gt', 'Lt' operators, the value must be an integer`);
        req = { key, op: rest.startsWith('>') ? 'gt' : 'lt', values: [value] };
      } else {
        const word = readWord();
        if (word !== 'in' && word !== 'notin') bad(s, `found '${word || s[i] || ''}', expected: in, notin, =, ==, !=, gt, lt`);
        skipWs();
        if (s[i] !== '(') bad(s, `found '${s[i] ?? ''}', expected: '('`);
        i++;
        const values: string[] = [];
        for (;;) {
          skipWs();
          if (s[i] === ')' && values.length === 0) break;
          const v = readWord();
          checkValue(v);
          values.push(v);
          skipWs();
          if (s[i] === ',') { i++; continue; }
          if (s[i] === ')') break;
          bad(s, `found '${s[i] ?? ''}', expected: ',', ')'`);
        }
        i++;
        if (values.length === 0) bad(s, 'for \'in\', \'notin\' operators, values set can\'t be empty');
        req = { key, op: word, values };
      }
    }
    reqs.push(req);
    skipWs();
    if (i >= s.length) break;
    if (s[i] !== ',') bad(s, `found '${s[i]}', expected: ',' or 'end of string'`);
    i++;
  }
  return reqs;
}

/** Whether a label set satisfies every requirement. */
export function matchesLabels(reqs: LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case 'exists': return has;
      case '!': return !has;
      case '=': return has && v === r.values[0];
      case '!=': return !has || v !== r.values[0];
      case 'in': return has && r.values.includes(v!);
      case 'notin': return !has || !r.values.includes(v!);
      case 'gt': return has && /^-?\d+$/.test(v!) && Number(v) > Number(r.values[0]);
      case 'lt': return has && /^-?\d+$/.test(v!) && Number(v) < Number(r.values[0]);
    }
  });
}
