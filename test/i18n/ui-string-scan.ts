/**
 * Finds text a user would read that does not come from the message files: JSX text, user-facing attributes
 * (placeholder, title, aria-label …), string literals shown as JSX children, toast()/confirm() texts and
 * label/title/description properties of object literals in UI code. It also lists every translation key the code
 * names (t('key') after useTranslations('ns'), tr('ns.key')), so a test can check each exists.
 *
 * A line (or the line above it) with the comment `i18n-exempt: <why>` is skipped: for strings that are data, not
 * UI text (a node handle id, a CSS value, a sample JSON body).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Finding {
  file: string;
  line: number;
  text: string;
  kind: 'jsx-text' | 'attribute' | 'child-literal' | 'call' | 'property';
}
export interface KeyUse {
  file: string;
  line: number;
  /** The full key (`namespace.key`), or for a template key its static prefix with `dynamic: true`. */
  key: string;
  dynamic: boolean;
}

const ROOT = path.resolve(__dirname, '../..');
const USER_ATTRIBUTES = new Set([
  'placeholder',
  'title',
  'aria-label',
  'alt',
  'label',
  'description',
  'hint',
  'help',
  'message',
  'heading',
  'subtitle',
  'emptyLabel',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
  'tooltip',
  'caption',
]);
const USER_PROPERTIES = new Set(['label', 'title', 'description', 'placeholder', 'hint', 'help', 'message']);
const USER_CALLS = new Set(['toast', 'confirm', 'alert', 'prompt']);

/**
 * Words the same in every language (product names, units, protocols): text made only of these, numbers and
 * punctuation needs no translation.
 */
const UNIVERSAL = new Set(
  (
    'PaiFlow ms s px KB MB GB JSON API APIs URL URLs ID HTTP HTTPS SSE MCP HMAC cURL curl cron UTC OK LLM SQL CSV ' +
    'PDF WAV MP3 PNG OpenAI OTel OTLP p50 p95 p99 GET POST PUT PATCH DELETE BM25 kNN RRF TTS ' +
    'x y n N k'
  ).split(' '),
);

const HAS_LETTER = /[A-Za-z\u3400-\u9fff]/;

function needsTranslation(text: string): boolean {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t || !HAS_LETTER.test(t)) return false;
  const words = t.match(/[A-Za-z][A-Za-z0-9]*|[\u3400-\u9fff]+/g) ?? [];
  return words.some((w) => !UNIVERSAL.has(w));
}

function exempt(sf: ts.SourceFile, node: ts.Node): boolean {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  const lines = sf.text.split('\n');
  return [lines[line], lines[line - 1]].some((l) => l?.includes('i18n-exempt'));
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return undefined;
}

/** The string literals an expression can evaluate to directly (through ?:, ||, ??, && and parentheses). */
function literalBranches(node: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(node)) return literalBranches(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalBranches(node.whenTrue), ...literalBranches(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) {
      return [...literalBranches(node.left), ...literalBranches(node.right)];
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalBranches(node.right);
    if (op === ts.SyntaxKind.PlusToken) return [...literalBranches(node.left), ...literalBranches(node.right)];
  }
  return literalText(node) !== undefined ? [node] : [];
}

function calleeName(expr: ts.LeftHandSideExpression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

function translatorNamespace(init: ts.Expression | undefined): string | undefined {
  let e = init;
  if (e && ts.isAwaitExpression(e)) e = e.expression;
  if (!e || !ts.isCallExpression(e)) return undefined;
  const name = calleeName(e.expression);
  if (name !== 'useTranslations' && name !== 'getTranslations') return undefined;
  const arg = e.arguments[0];
  if (!arg) return '';
  if (ts.isStringLiteral(arg)) return arg.text;
  if (ts.isObjectLiteralExpression(arg)) {
    for (const p of arg.properties) {
      if (ts.isPropertyAssignment(p) && p.name.getText() === 'namespace' && ts.isStringLiteral(p.initializer)) {
        return p.initializer.text;
      }
    }
  }
  return undefined;
}

export function scanFile(file: string): { findings: Finding[]; keys: KeyUse[] } {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
  const rel = path.relative(ROOT, file);
  const findings: Finding[] = [];
  const keys: KeyUse[] = [];
  const translators = new Map<string, string>();
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const flag = (n: ts.Node, s: string, kind: Finding['kind']) => {
    if (needsTranslation(s) && !exempt(sf, n)) findings.push({ file: rel, line: lineOf(n), text: s.trim(), kind });
  };

  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const ns = translatorNamespace(node.initializer);
      if (ns !== undefined) translators.set(node.name.text, ns);
    }
    if (ts.isJsxText(node)) flag(node, node.text, 'jsx-text');
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(sf);
      if (USER_ATTRIBUTES.has(name)) {
        const init = node.initializer;
        if (ts.isStringLiteral(init)) flag(init, init.text, 'attribute');
        else if (ts.isJsxExpression(init) && init.expression) {
          for (const b of literalBranches(init.expression)) flag(b, literalText(b) ?? '', 'attribute');
        }
      }
    }
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const b of literalBranches(node.expression)) flag(b, literalText(b) ?? '', 'child-literal');
    }
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name && USER_CALLS.has(name)) {
        // toast(kind, title, detail): the kind is a style name, not text.
        const shown = name === 'toast' ? node.arguments.slice(1) : node.arguments;
        for (const a of shown) for (const b of literalBranches(a)) flag(b, literalText(b) ?? '', 'call');
      }
      const arg = node.arguments[0];
      if (name && arg) {
        const isTr = name === 'tr' && ts.isIdentifier(node.expression);
        const owner = ts.isIdentifier(node.expression)
          ? node.expression.text
          : ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression)
            ? node.expression.expression.text
            : undefined;
        const ns = isTr ? '' : owner !== undefined ? translators.get(owner) : undefined;
        const isMethod = ts.isPropertyAccessExpression(node.expression);
        const method = isMethod ? (node.expression as ts.PropertyAccessExpression).name.text : '';
        if (ns !== undefined && (!isMethod || ['rich', 'markup', 'raw', 'has'].includes(method))) {
          const join = (k: string) => (ns ? `${ns}.${k}` : k);
          if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) {
            keys.push({ file: rel, line: lineOf(arg), key: join(arg.text), dynamic: false });
          } else if (ts.isTemplateExpression(arg)) {
            // The group the key is in: the head up to its last dot (`status.${s}` → status; `${noun}.edit` → ns).
            const head = arg.head.text;
            const prefix = head.includes('.') ? head.slice(0, head.lastIndexOf('.')) : '';
            const key = prefix ? join(prefix) : ns;
            if (key) keys.push({ file: rel, line: lineOf(arg), key, dynamic: true });
          }
        }
      }
    }
    if (ts.isPropertyAssignment(node) && USER_PROPERTIES.has(node.name.getText(sf).replace(/['"]/g, ''))) {
      for (const b of literalBranches(node.initializer)) flag(b, literalText(b) ?? '', 'property');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { findings, keys };
}

/** Every UI source file: .tsx under app/ and components/, and the .ts modules beside them (stores, helpers). */
export function uiFiles(dirs = ['app', 'components']): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (p.includes(`${path.sep}api${path.sep}`) || p.endsWith(`${path.sep}api`)) {
          if (p.startsWith(path.join(ROOT, 'app'))) continue; // route handlers: their text is API text
        }
        walk(p);
      } else if (/\.(tsx|ts)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        out.push(p);
      }
    }
  };
  for (const d of dirs) walk(path.join(ROOT, d));
  return out.sort();
}

export function scanUi(dirs?: string[]) {
  const findings: Finding[] = [];
  const keys: KeyUse[] = [];
  for (const f of uiFiles(dirs)) {
    const r = scanFile(f);
    findings.push(...r.findings);
    keys.push(...r.keys);
  }
  return { findings, keys };
}
