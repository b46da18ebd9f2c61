/**
 * HTML → plain text for indexing, by a small tokenizer rather than regexes over the whole document: it respects
 * quoted attribute values (a ">" inside one does not end the tag), drops the content of script/style/template/
 * noscript/svg/iframe and comments, turns block elements and <br> into line breaks (paragraph breaks for
 * p/h1-6/li/tr/…, so the chunker can cut there), decodes named and numeric character references and collapses
 * whitespace. The <title> is returned separately.
 */
import { decodeHTML } from 'entities/decode';

const DROP = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'svg',
  'iframe',
  'object',
  'canvas',
  'math',
  'select',
]);
const PARA = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'dl',
  'table',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'hr',
]);
const LINE = new Set(['br', 'li', 'dt', 'dd', 'tr', 'caption', 'option']);
const CELL = new Set(['td', 'th']);

/**
 * Character references decoded as a browser does (the `entities` package: the whole HTML5 table, legacy references
 * without ";", numeric references with the Windows-1252 fix-ups and U+FFFD for invalid ones). Soft hyphens are
 * dropped: they are invisible in a page and would split the word they sit in for the keyword index.
 */
function decodeEntities(s: string): string {
  return decodeHTML(s).replace(/\u00ad/g, '');
}

export function htmlToText(html: string): { text: string; title: string | null } {
  const out: string[] = [];
  let title: string | null = null;
  let i = 0;
  const n = html.length;
  let dropUntil: string | null = null;
  let inTitle = false;
  let titleBuf = '';
  while (i < n) {
    const lt = html.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const t = html.slice(i, textEnd);
      if (inTitle) titleBuf += t;
      else if (!dropUntil) out.push(t);
    }
    if (lt < 0) break;
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const end = html.indexOf('>', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    const m = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)/.exec(html.slice(i, i + 64));
    if (!m) {
      // A lone "<" is text.
      if (!dropUntil && !inTitle) out.push('<');
      i++;
      continue;
    }
    // Find the tag's end, skipping quoted attribute values.
    let j = i + m[0].length;
    let quote: string | null = null;
    for (; j < n; j++) {
      const c = html[j];
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    const selfClosing = html[j - 1] === '/';
    i = j + 1;
    if (dropUntil) {
      if (closing && name === dropUntil) dropUntil = null;
      continue;
    }
    if (name === 'title' && !closing) {
      inTitle = true;
      continue;
    }
    if (name === 'title' && closing) {
      inTitle = false;
      title = decodeEntities(titleBuf).replace(/\s+/g, ' ').trim() || null;
      continue;
    }
    if (DROP.has(name) && !closing && !selfClosing) {
      dropUntil = name;
      continue;
    }
    if (PARA.has(name)) out.push('\n\n');
    else if (LINE.has(name)) {
      if (!closing) out.push('\n');
    } else if (CELL.has(name) && closing) out.push('\t');
    else if (name === 'img' && !closing) {
      const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(html.slice(lt, i));
      if (alt) out.push(` ${alt[2] ?? alt[3]} `);
    }
  }
  const text = decodeEntities(out.join(''))
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, title };
}
