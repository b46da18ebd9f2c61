/**
 * A safe arithmetic evaluator for the calculator tool: a tokenizer and a recursive-descent parser over a closed
 * grammar (numbers, + - * / % ^, parentheses, a fixed table of functions and constants). Nothing is ever
 * evaluated as code — no eval, new Function or vm — and the input length and nesting depth are bounded.
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/' | '%') unary)*
 *   unary  := ('+' | '-') unary | power
 *   power  := call ('^' unary)?          (right-associative; -2^2 = -4 as in maths)
 *   call   := ident '(' args? ')' | ident | number | '(' expr ')'
 */
export class CalcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalcError';
  }
}

const MAX_LENGTH = 1000;
const MAX_DEPTH = 64;

const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...a: number[]) => number }> = {
  sqrt: { arity: [1, 1], fn: Math.sqrt },
  cbrt: { arity: [1, 1], fn: Math.cbrt },
  abs: { arity: [1, 1], fn: Math.abs },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  asin: { arity: [1, 1], fn: Math.asin },
  acos: { arity: [1, 1], fn: Math.acos },
  atan: { arity: [1, 1], fn: Math.atan },
  ln: { arity: [1, 1], fn: Math.log },
  log: { arity: [1, 2], fn: (x, base) => (base === undefined ? Math.log10(x) : Math.log(x) / Math.log(base)) },
  log10: { arity: [1, 1], fn: Math.log10 },
  log2: { arity: [1, 1], fn: Math.log2 },
  exp: { arity: [1, 1], fn: Math.exp },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  round: {
    arity: [1, 2],
    fn: (x, d = 0) => {
      const f = 10 ** d;
      return Math.round(x * f) / f;
    },
  },
  trunc: { arity: [1, 1], fn: Math.trunc },
  min: { arity: [1, 100], fn: Math.min },
  max: { arity: [1, 100], fn: Math.max },
  pow: { arity: [2, 2], fn: Math.pow },
  hypot: { arity: [1, 100], fn: Math.hypot },
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

type Token =
  | { kind: 'num'; value: number; pos: number }
  | { kind: 'id'; value: string; pos: number }
  | { kind: 'op'; value: string; pos: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // Digits may be grouped with "_" (1_000); a comma always separates function arguments (max(100,200)).
    const num = /^(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ kind: 'num', value: Number(num[0].replace(/_/g, '')), pos: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      out.push({ kind: 'id', value: id[0].toLowerCase(), pos: i });
      i += id[0].length;
      continue;
    }
    if (src.startsWith('**', i)) {
      out.push({ kind: 'op', value: '^', pos: i });
      i += 2;
      continue;
    }
    if ('+-*/%^(),'.includes(c)) {
      out.push({ kind: 'op', value: c, pos: i });
      i++;
      continue;
    }
    if (c === '×') {
      out.push({ kind: 'op', value: '*', pos: i });
      i++;
      continue;
    }
    if (c === '÷') {
      out.push({ kind: 'op', value: '/', pos: i });
      i++;
      continue;
    }
    throw new CalcError(`unexpected character "${c}" at position ${i + 1}`);
  }
  return out;
}

export function evaluate(expression: string): number {
  if (typeof expression !== 'string' || !expression.trim()) throw new CalcError('the expression is empty');
  if (expression.length > MAX_LENGTH) throw new CalcError(`the expression is longer than ${MAX_LENGTH} characters`);
  const tokens = tokenize(expression);
  let p = 0;
  let depth = 0;
  const peek = () => tokens[p];
  const isOp = (v: string) => peek()?.kind === 'op' && peek()!.value === v;
  const expectOp = (v: string) => {
    if (!isOp(v)) throw new CalcError(`expected "${v}"${peek() ? ` at position ${peek()!.pos + 1}` : ' at the end'}`);
    p++;
  };
  const nest = <T>(fn: () => T): T => {
    if (++depth > MAX_DEPTH) throw new CalcError('the expression is nested too deeply');
    try {
      return fn();
    } finally {
      depth--;
    }
  };

  const expr = (): number =>
    nest(() => {
      let v = term();
      while (isOp('+') || isOp('-')) {
        const op = tokens[p++].value;
        const r = term();
        v = op === '+' ? v + r : v - r;
      }
      return v;
    });
  const term = (): number => {
    let v = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = tokens[p++].value;
      const r = unary();
      if ((op === '/' || op === '%') && r === 0) throw new CalcError('division by zero');
      v = op === '*' ? v * r : op === '/' ? v / r : v % r;
    }
    return v;
  };
  const unary = (): number =>
    nest(() => {
      if (isOp('-')) {
        p++;
        return -unary();
      }
      if (isOp('+')) {
        p++;
        return unary();
      }
      return power();
    });
  const power = (): number => {
    const base = primary();
    if (isOp('^')) {
      p++;
      return base ** unary();
    }
    return base;
  };
  const primary = (): number => {
    const t = peek();
    if (!t) throw new CalcError('the expression ends too early');
    if (t.kind === 'num') {
      p++;
      return t.value;
    }
    if (t.kind === 'op' && t.value === '(') {
      p++;
      const v = expr();
      expectOp(')');
      return v;
    }
    if (t.kind === 'id') {
      p++;
      if (isOp('(')) {
        const f = Object.hasOwn(FUNCTIONS, t.value) ? FUNCTIONS[t.value] : undefined;
        if (!f) throw new CalcError(`unknown function "${t.value}"`);
        p++;
        const args: number[] = [];
        if (!isOp(')')) {
          args.push(expr());
          while (isOp(',')) {
            p++;
            args.push(expr());
          }
        }
        expectOp(')');
        if (args.length < f.arity[0] || args.length > f.arity[1])
          throw new CalcError(
            `${t.value}() takes ${f.arity[0] === f.arity[1] ? f.arity[0] : `${f.arity[0]}–${f.arity[1]}`} argument(s)`,
          );
        return f.fn(...args);
      }
      if (Object.hasOwn(CONSTANTS, t.value)) return CONSTANTS[t.value];
      throw new CalcError(`unknown name "${t.value}"`);
    }
    throw new CalcError(`unexpected "${t.value}" at position ${t.pos + 1}`);
  };

  const v = expr();
  if (p < tokens.length) throw new CalcError(`unexpected "${tokens[p].value}" at position ${tokens[p].pos + 1}`);
  if (!Number.isFinite(v))
    throw new CalcError(Number.isNaN(v) ? 'the result is not a number' : 'the result is infinite');
  return v;
}
