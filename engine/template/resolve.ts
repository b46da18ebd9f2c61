/**
 * The one template resolver. `{{inputs.question}}`, `{{n1.output.text}}`, `{{n3.output.items[0].title}}`,
 * with a fallback chain `{{a.output.text || b.output.text || "none"}}`.
 * Templates are parsed as data paths and looked up with own-property reads only — never evaluated as code —
 * so `{{constructor.constructor('return process')()}}` or `__proto__` paths are inert (unparseable or unresolved).
 *
 * Cost: finding refs and rendering are linear in the template plus the output, so rendering stays on the event loop;
 * what can be large is the output (a 1 MB value interpolated 200 times is 200 MB), so an interpolated string longer
 * than the scope's `maxOutputChars` (TEMPLATE_MAX_OUTPUT_CHARS, which the runtime is given and puts in the scopes it
 * builds) fails with TEMPLATE_OUTPUT_TOO_LARGE. A template that is exactly one ref passes the value itself along,
 * copying nothing.
 */
import { defaultSettings } from '../config/settings';
import { PaiError } from '../errors';
import type { ConversationVariable } from './conversation-variables';

export type PathSegment = string | number;

export interface TemplateScope {
  inputs: Record<string, unknown>;
  /** Outputs of upstream nodes by node id: `{ n1: { output, status } }`. */
  nodes: Record<string, { output?: unknown; status?: string } | undefined>;
  /**
   * The run's conversation variables as they are now (`{{conversation.name}}`): the run's starting values, changed by
   * the nodes that wrote them (engine/template/conversation-variables.ts). Absent: the workflow declares none.
   */
  conversation?: Record<string, unknown>;
  /** The declarations of those variables (what a node that writes them checks types against); not reachable by refs. */
  conversationDeclared?: ConversationVariable[];
  /**
   * Characters an interpolated string may render to (TEMPLATE_MAX_OUTPUT_CHARS), set by whoever builds the scope (the
   * runtime, from its limits); unset, the variable's default. Not a value templates can reach: refs read `inputs`,
   * `conversation` and `nodes` only.
   */
  maxOutputChars?: number;
}

export interface TemplateRef {
  /** Raw text between the braces, trimmed. */
  expr: string;
  /** Each alternative of a fallback chain, parsed; `null` when an alternative is not a valid path. */
  alternatives: Array<{ path: PathSegment[] | null; literal?: string }>;
  start: number;
  end: number;
}

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Parses `a.b[0]["c d"].e` into segments; returns null for anything else (calls, operators, quotes in odd places). */
export function parsePath(expr: string): PathSegment[] | null {
  const segs: PathSegment[] = [];
  let i = 0;
  const s = expr.trim();
  const readIdent = (): string | null => {
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(s.slice(i));
    if (!m) return null;
    i += m[0].length;
    return m[0];
  };
  const first = readIdent();
  if (first === null) return null;
  segs.push(first);
  while (i < s.length) {
    if (s[i] === '.') {
      i++;
      const id = readIdent();
      if (id === null) return null;
      segs.push(id);
    } else if (s[i] === '[') {
      const m = /^\[\s*(\d+|"[^"\\]*"|'[^'\\]*')\s*\]/.exec(s.slice(i));
      if (!m) return null;
      i += m[0].length;
      const tok = m[1];
      segs.push(/^\d+$/.test(tok) ? Number(tok) : tok.slice(1, -1));
    } else {
      return null;
    }
  }
  if (segs.some((seg) => typeof seg === 'string' && FORBIDDEN.has(seg))) return null;
  return segs;
}

/** Splits a fallback chain on `||` outside quotes, so a literal like `"a || b"` stays one alternative. */
function splitAlternatives(expr: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let cur = '';
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '|' && expr[i + 1] === '|') {
      parts.push(cur);
      cur = '';
      i++;
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts;
}

function parseAlternatives(expr: string): TemplateRef['alternatives'] {
  return splitAlternatives(expr).map((part) => {
    const p = part.trim();
    const lit = /^"([^"\\]*)"$|^'([^'\\]*)'$/.exec(p);
    if (lit) return { path: [], literal: lit[1] ?? lit[2] ?? '' };
    return { path: parsePath(p) };
  });
}

/**
 * Every `{{ expr }}` in the text: two opening braces, then no brace until two closing ones (as the regex
 * /\{\{\s*([^{}]*?)\s*\}\}/g finds them). A scan, not that regex: the regex backtracks over whitespace and took
 * 18 s on "{{a" followed by 200,000 spaces; this looks at each character about once.
 */
export function findRefs(text: string): TemplateRef[] {
  const refs: TemplateRef[] = [];
  for (let i = text.indexOf('{{'); i >= 0;) {
    let j = i + 2;
    while (j < text.length && text[j] !== '{' && text[j] !== '}') j++;
    if (text[j] === '}' && text[j + 1] === '}') {
      const expr = text.slice(i + 2, j).trim();
      refs.push({ expr, alternatives: parseAlternatives(expr), start: i, end: j + 2 });
      i = text.indexOf('{{', j + 2);
    } else {
      // No ref starts at i. One may start at i+1 ("{{{a}}"); none can start between i+2 and j (no braces there).
      i = text.indexOf('{{', j === i + 2 ? i + 1 : j);
    }
  }
  return refs;
}

/**
 * Where a `{{` opens no ref: a `{{ref` never closed by `}}`, or one with a brace before its `}}`. Such text would
 * be passed on literally, so the validator reports it (UNCLOSED_REF) instead. A run of braces (`{{{`) counts once,
 * and not at all when its last two braces open a ref (`{{{a}}`). Linear, like findRefs.
 */
export function findUnclosedRefs(text: string, refs: TemplateRef[] = findRefs(text)): number[] {
  const starts = new Set(refs.map((r) => r.start));
  const out: number[] = [];
  for (let i = text.indexOf('{{'); i >= 0;) {
    let end = i + 2;
    while (text[end] === '{') end++;
    if (!starts.has(end - 2)) out.push(i);
    i = text.indexOf('{{', end);
  }
  return out;
}

function own(obj: unknown, key: PathSegment): unknown {
  if (obj === null || obj === undefined) return undefined;
  if (typeof key === 'number') return Array.isArray(obj) ? obj[key] : undefined;
  if (typeof obj !== 'object' || FORBIDDEN.has(key)) return undefined;
  return Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Looks a path up in the scope. Root `inputs` → run inputs; `conversation` → its variables; else a node id. */
export function lookup(scope: TemplateScope, path: PathSegment[]): unknown {
  const [root, ...rest] = path;
  let cur: unknown =
    root === 'inputs' ? scope.inputs : root === 'conversation' ? scope.conversation : own(scope.nodes, root);
  for (const seg of rest) cur = own(cur, seg);
  return cur;
}

function evalRef(ref: TemplateRef, scope: TemplateScope): unknown {
  for (const alt of ref.alternatives) {
    if (alt.literal !== undefined) return alt.literal;
    if (!alt.path) continue;
    const v = lookup(scope, alt.path);
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

function stringify(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/**
 * Renders a template. A string that is exactly one `{{ref}}` yields the referenced value with its type
 * (object, number …); otherwise refs are interpolated as text (objects as JSON, missing values as '').
 */
export function renderTemplate(text: string, scope: TemplateScope): unknown {
  const refs = findRefs(text);
  if (refs.length === 0) return text;
  if (refs.length === 1 && refs[0].start === 0 && refs[0].end === text.length) return evalRef(refs[0], scope);
  const max = scope.maxOutputChars ?? defaultSettings().TEMPLATE_MAX_OUTPUT_CHARS;
  let out = '';
  let last = 0;
  for (const r of refs) {
    out += text.slice(last, r.start) + stringify(evalRef(r, scope));
    last = r.end;
    // Checked as it grows, so a runaway render stops at the limit instead of building all of it.
    if (out.length > max) throw outputTooLarge(max);
  }
  out += text.slice(last);
  if (out.length > max) throw outputTooLarge(max);
  return out;
}

function outputTooLarge(max: number): PaiError {
  return new PaiError(
    'TEMPLATE_OUTPUT_TOO_LARGE',
    `the template renders to more than ${max} characters (TEMPLATE_MAX_OUTPUT_CHARS)`,
  );
}

export function renderText(text: string, scope: TemplateScope): string {
  return stringify(renderTemplate(text, scope));
}

/** Resolves every string inside a config value (deep), keeping non-string leaves. */
export function resolveDeep<T>(value: T, scope: TemplateScope): T {
  if (typeof value === 'string') return renderTemplate(value, scope) as T;
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, scope)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!FORBIDDEN.has(k)) out[k] = resolveDeep(v, scope);
    return out as T;
  }
  return value;
}

/** Calls `fn` with every string inside a config value and the JSON path that holds it. */
function eachString(value: unknown, basePath: string, fn: (text: string, path: string) => void) {
  const walk = (v: unknown, p: string) => {
    if (typeof v === 'string') fn(v, p);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}[${i}]`));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, IDENT.test(k) ? `${p}.${k}` : `${p}[${JSON.stringify(k)}]`);
  };
  walk(value, basePath);
}

/** Every template ref in a config value, with the JSON path of the string that holds it. */
export function collectRefs(value: unknown, basePath: string): Array<{ path: string; ref: TemplateRef }> {
  const found: Array<{ path: string; ref: TemplateRef }> = [];
  eachString(value, basePath, (text, path) => {
    for (const ref of findRefs(text)) found.push({ path, ref });
  });
  return found;
}

/**
 * Every `{{` in a config value that opens no ref (findUnclosedRefs), with the JSON path of its string and the text
 * it starts (to the end of its line, at most 40 characters, for the message).
 */
export function collectUnclosedRefs(value: unknown, basePath: string): Array<{ path: string; text: string }> {
  const found: Array<{ path: string; text: string }> = [];
  eachString(value, basePath, (text, path) => {
    for (const at of findUnclosedRefs(text)) {
      const line = text.slice(at).split('\n')[0];
      found.push({ path, text: line.length > 40 ? `${line.slice(0, 40)}…` : line });
    }
  });
  return found;
}
