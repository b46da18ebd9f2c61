/**
 * n8n expressions as data. A parameter that starts with `=` is a template whose `{{ … }}` parts are JavaScript;
 * PaiFlow's references are paths, never code, so only expressions that are paths (with a fallback) can become
 * references: `$json.a.b`, `$json["a b"][0]`, `$input.first().json.x`, `$('Node').item.json.x`,
 * `$node["Node"].json.x`, wrapped or not in `JSON.stringify(…)` / `String(…)` / `….toString()`, and chained with
 * `||` / `??` ending, optionally, in a string literal. Anything else is code, reported and left out by the caller.
 */

export type Segment = string | number;

/** One value an expression reads: the current node's input (`node` undefined) or a named node's output. */
export interface ExprRef {
  node?: string;
  path: Segment[];
}

export interface ParsedExpression {
  refs: ExprRef[];
  /** The string literal that ends a fallback chain (`$json.x || 'none'`). */
  fallback?: string;
  /** Wrapped in JSON.stringify: in a JSON document the value goes in as JSON, not as text. */
  stringify: boolean;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (/\s/.test(this.s[this.i] ?? '')) this.i++;
  }
  eat(token: string): boolean {
    this.ws();
    if (this.s.startsWith(token, this.i)) {
      this.i += token.length;
      return true;
    }
    return false;
  }
  ident(): string | null {
    this.ws();
    const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.s.slice(this.i));
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }
  quoted(): string | null {
    this.ws();
    const m = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$\\]*)`)/.exec(this.s.slice(this.i));
    if (!m) return null;
    this.i += m[0].length;
    return (m[1] ?? m[2] ?? m[3]).replace(/\\(.)/g, '$1');
  }
  index(): number | null {
    this.ws();
    const m = /^\d+/.exec(this.s.slice(this.i));
    if (!m) return null;
    this.i += m[0].length;
    return Number(m[0]);
  }
  done(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
}

/** `.a`, `?.a`, `["a"]`, `[0]` … after a root; stops before anything else. */
function accessors(r: Reader): Segment[] | null {
  const path: Segment[] = [];
  for (;;) {
    const at = r.i;
    if (r.eat('?.') || r.eat('.')) {
      const id = r.ident();
      if (id === null || id === 'toString') {
        r.i = at;
        return path;
      }
      path.push(id);
    } else if (r.eat('[')) {
      const key = r.quoted() ?? r.index();
      if (key === null || !r.eat(']')) return null;
      path.push(key);
    } else return path;
  }
}

/** The item of a node handle: `.item`, `.first()`, `.last()`, `.all()[0]`, `.itemMatching(0)`, then `.json`. */
function itemJson(r: Reader): boolean {
  const ok =
    r.eat('.item') ||
    (r.eat('.first') && r.eat('(') && r.eat(')')) ||
    (r.eat('.last') && r.eat('(') && r.eat(')')) ||
    (r.eat('.all') && r.eat('(') && r.eat(')') && r.eat('[') && r.index() !== null && r.eat(']')) ||
    (r.eat('.itemMatching') && r.eat('(') && r.index() !== null && r.eat(')'));
  return ok && r.eat('.json');
}

/** One reference: `$json…`, `$input….json…`, `$('X')….json…`, `$node["X"].json…`. */
function reference(r: Reader): ExprRef | null {
  const start = r.i;
  let node: string | undefined;
  if (r.eat('$json')) {
    /* the current node's input */
  } else if (r.eat('$input')) {
    if (!itemJson(r)) return null;
  } else if (r.eat('$node')) {
    let name: string | null = null;
    if (r.eat('[')) {
      name = r.quoted();
      if (!r.eat(']')) return null;
    } else if (r.eat('.')) name = r.ident();
    if (name === null || !r.eat('.json')) return null;
    node = name;
  } else if (r.eat('$(')) {
    const name = r.quoted();
    if (name === null || !r.eat(')') || !itemJson(r)) return null;
    node = name;
  } else {
    r.i = start;
    return null;
  }
  if (/^[A-Za-z0-9_$]/.test(r.s[r.i] ?? '')) return null; // `$jsonX`, `$nodeFoo`
  const path = accessors(r);
  if (!path) return null;
  if (r.eat('.toString')) {
    if (!r.eat('(') || !r.eat(')')) return null;
  }
  return { node, path };
}

/** A wrapped reference: `JSON.stringify(x)`, `String(x)`, or a plain one. */
function operand(r: Reader): { ref: ExprRef; stringify: boolean } | null {
  for (const [wrap, stringify] of [
    ['JSON.stringify(', true],
    ['String(', false],
  ] as const) {
    const at = r.i;
    if (r.eat(wrap)) {
      const ref = reference(r);
      if (ref && r.eat(')')) return { ref, stringify };
      r.i = at;
      return null;
    }
  }
  const ref = reference(r);
  return ref ? { ref, stringify: false } : null;
}

/** The expression between `{{` and `}}` as references, or null when it is code. */
export function parseExpression(expr: string): ParsedExpression | null {
  const r = new Reader(expr);
  const refs: ExprRef[] = [];
  let stringify = false;
  let fallback: string | undefined;
  for (;;) {
    const lit = r.quoted();
    if (lit !== null) {
      fallback = lit;
      break;
    }
    const op = operand(r);
    if (!op) return null;
    refs.push(op.ref);
    stringify ||= op.stringify;
    if (!(r.eat('||') || r.eat('??'))) break;
  }
  return r.done() && refs.length ? { refs, fallback, stringify } : null;
}

export interface ExpressionPart {
  /** Literal text, or the inside of a `{{ … }}`. */
  text: string;
  expression: boolean;
}

/**
 * A parameter value split into text and `{{ … }}` expressions; a value without the leading `=` is all text. The
 * end of an expression is the `}}` that closes its braces, so `{{ { a: 1 } }}` is one expression.
 */
export function splitTemplate(value: string): ExpressionPart[] {
  if (!value.startsWith('=')) return [{ text: value, expression: false }];
  const s = value.slice(1);
  const parts: ExpressionPart[] = [];
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf('{{', i);
    if (open < 0) break;
    let depth = 0;
    let end = -1;
    for (let j = open + 2; j < s.length; j++) {
      if (s[j] === '{') depth++;
      else if (s[j] === '}') {
        if (depth === 0 && s[j + 1] === '}') {
          end = j;
          break;
        }
        depth = Math.max(0, depth - 1);
      }
    }
    if (end < 0) break;
    if (open > i) parts.push({ text: s.slice(i, open), expression: false });
    parts.push({ text: s.slice(open + 2, end).trim(), expression: true });
    i = end + 2;
  }
  if (i < s.length) parts.push({ text: s.slice(i), expression: false });
  return parts;
}

/** `$('Name')` / `$node["Name"]` names a Code node's source reads, for its shim. */
export function nodesNamedInCode(code: string): string[] {
  const names = new Set<string>();
  for (const m of code.matchAll(/\$\(\s*(['"`])((?:(?!\1).)+)\1\s*\)/g)) names.add(m[2]);
  for (const m of code.matchAll(/\$node\[\s*(['"])((?:(?!\1).)+)\1\s*\]/g)) names.add(m[2]);
  return [...names];
}
