/**
 * Dify's references in PaiFlow's syntax. Dify names a value by a selector, `[nodeId, variable, ...]`, written in
 * text as `{{#nodeId.variable#}}` (and `{{#context#}}` for an LLM's context); template-transform nodes use Jinja2
 * over named variables. Both become `{{<path>}}` references (dify.ts says which path each node's values have).
 */
import { literal } from './refs';

export type Selector = string[];

export interface DifyRefs {
  /** The PaiFlow reference path of a selector, or undefined when it has none (its node was dropped, or unknown). */
  pathOf(selector: Selector): string | undefined;
}

const DIFY_REF = /\{\{#([A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64}){1,10}|context)#\}\}/g;

/** Every selector a text references (context excluded). */
export function selectorsIn(text: string): Selector[] {
  return [...text.matchAll(DIFY_REF)]
    .map((m) => m[1])
    .filter((s) => s !== 'context')
    .map((s) => s.split('.'));
}

/**
 * `text` with each `{{#node.var#}}` as a PaiFlow reference. A reference without a path becomes empty text and is
 * passed to `onMissing`; `{{#context#}}` becomes `context` (an LLM's context reference, or '').
 */
export function rewriteDifyText(
  text: unknown,
  refs: DifyRefs,
  onMissing: (what: string) => void,
  context = '',
): string {
  if (typeof text !== 'string') return typeof text === 'number' || typeof text === 'boolean' ? String(text) : '';
  let out = '';
  let last = 0;
  for (const m of text.matchAll(DIFY_REF)) {
    out += literal(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] === 'context') {
      out += context;
      continue;
    }
    const path = refs.pathOf(m[1].split('.'));
    if (path) out += `{{${path}}}`;
    else onMissing(m[0]);
  }
  return out + literal(text.slice(last));
}

export interface JinjaResult {
  text: string;
  /** Filters left out (`upper`), statements and expressions kept as text. */
  filters: string[];
  kept: string[];
}

const JINJA = /\{\{-?([\s\S]*?)-?\}\}|\{%-?[\s\S]*?-?%\}|\{#[\s\S]*?#\}/g;
const JINJA_PATH = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\[(?:"[^"]*"|'[^']*')\])*)$/;

/**
 * A Jinja2 template (Dify's template-transform) as PaiFlow text: `{{ var }}`, `{{ var.field }}` and `{{ var[0] }}`
 * of a named variable become references; a filter (`| upper`) is left out; statements (`{% for %}`) and other
 * expressions have no PaiFlow equivalent and are kept as text (an expression as `{ expr }`, which is no reference).
 */
export function rewriteJinja(template: string, vars: ReadonlyMap<string, string | undefined>): JinjaResult {
  const filters: string[] = [];
  const kept: string[] = [];
  let out = '';
  let last = 0;
  for (const m of template.matchAll(JINJA)) {
    out += literal(template.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[0].startsWith('{#')) continue;
    if (m[0].startsWith('{%')) {
      kept.push(m[0]);
      out += m[0];
      continue;
    }
    const [head, ...pipes] = m[1].split('|').map((s) => s.trim());
    const p = JINJA_PATH.exec(head);
    const base = p ? vars.get(p[1]) : undefined;
    if (p && vars.has(p[1])) {
      filters.push(...pipes.filter(Boolean));
      out += base ? `{{${base}${p[2].replace(/'/g, '"')}}}` : '';
    } else {
      kept.push(m[0]);
      out += `{ ${m[1].trim()} }`;
    }
  }
  return { text: out + literal(template.slice(last)), filters, kept };
}
