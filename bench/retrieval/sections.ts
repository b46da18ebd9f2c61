/**
 * The retrieval bench's corpora (bench/retrieval/corpora/<name>/, real public Markdown, see SOURCES.md there) split
 * into sections, and the heading queries made from them.
 *
 * A page's title is its front matter `title:` or else its first heading; its sections are the headings of the next
 * two levels below the title's (Egg's pages: `##` and `###`; Fastify's pages, whose title is a `##` or `#` heading:
 * the two levels under it). Deeper headings stay inside their section's text. Each section becomes one document
 * whose text is the section's body WITHOUT its own heading (the heading is the query), titled with its page's title
 * and its number in the page (titles are unique in a knowledge base: a re-upload of a title replaces the document).
 *
 * A heading query's relevant documents are its section and the sections under it (a heading names its whole
 * subtree). Headings that name more than one section in the corpus ("Example", "示例") are left out: which one was
 * meant cannot be known. Sections whose own body is shorter than MIN_BODY characters are not uploaded (a heading
 * followed straight by its first sub-heading): their heading still counts, its sub-sections answering it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const MIN_BODY = 80;

export interface Section {
  /** `<file>#<heading as written>` (paraphrase queries name their section so). */
  id: string;
  file: string;
  pageTitle: string;
  heading: string;
  /** 0: a section of the first level under the title; 1: of the second. */
  depth: number;
  /** The enclosing first-level section's id, for a second-level one. */
  parentId: string | null;
  body: string;
  /** The document title it is uploaded with (null: too short to upload). */
  title: string | null;
}

export interface LabelledQuery {
  query: string;
  kind: 'heading' | 'paraphrase';
  /** Ids of the sections that answer it (uploaded ones only). */
  relevant: string[];
}

export interface Corpus {
  name: string;
  language: 'zh-CN' | 'en';
  sections: Section[];
  documents: Section[];
  queries: LabelledQuery[];
  bytes: number;
}

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md') && name !== 'SOURCES.md') out.push(p);
  }
  return out;
}

/** A heading as a person would type it: no Markdown, no anchors, no HTML. */
export function plainHeading(raw: string): string {
  return raw
    .replace(/\{#[^}]*\}/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/[:：]\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Heading {
  line: number;
  level: number;
  text: string;
}

function headingsOf(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  lines.forEach((l, i) => {
    const f = /^\s*(```|~~~)/.exec(l);
    if (f) {
      if (fence === null) fence = f[1];
      else if (fence === f[1]) fence = null;
      return;
    }
    if (fence) return;
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l);
    if (m) out.push({ line: i, level: m[1].length, text: m[2] });
  });
  return out;
}

function parsePage(file: string, source: string): Section[] {
  let text = source.replace(/\r\n?/g, '\n');
  let title: string | null = null;
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (fm) {
    title =
      /^title:\s*(.+)$/m
        .exec(fm[1])?.[1]
        .trim()
        .replace(/^['"]|['"]$/g, '') ?? null;
    text = text.slice(fm[0].length);
  }
  // Fastify's pages open with an HTML banner heading.
  text = text.replace(/^\s*<h1[^>]*>.*?<\/h1>\s*/i, '');
  const lines = text.split('\n');
  const heads = headingsOf(lines);
  let titleLevel = 1;
  let first = 0;
  if (!title && heads.length) {
    title = plainHeading(heads[0].text);
    titleLevel = heads[0].level;
    first = 1;
  }
  if (!title) title = path.basename(file, '.md');
  const sectionLevels = heads.slice(first).map((h) => h.level);
  const top = sectionLevels.length ? Math.max(titleLevel + 1, Math.min(...sectionLevels)) : titleLevel + 1;
  const out: Section[] = [];
  let parentId: string | null = null;
  const mine = heads.slice(first).filter((h) => h.level === top || h.level === top + 1);
  mine.forEach((h, i) => {
    const end = i + 1 < mine.length ? mine[i + 1].line : lines.length;
    const body = lines
      .slice(h.line + 1, end)
      .join('\n')
      .trim();
    const id = `${file}#${plainHeading(h.text)}`;
    const depth = h.level === top ? 0 : 1;
    if (depth === 0) parentId = id;
    out.push({
      id,
      file,
      pageTitle: title!,
      heading: plainHeading(h.text),
      depth,
      parentId: depth === 1 ? parentId : null,
      body,
      title: null,
    });
  });
  return out;
}

export function loadCorpus(dir: string, name: string, language: Corpus['language']): Corpus {
  const root = path.join(dir, name);
  const sections: Section[] = [];
  let bytes = 0;
  for (const f of markdownFiles(root)) {
    const src = readFileSync(f, 'utf8');
    bytes += Buffer.byteLength(src);
    sections.push(...parsePage(path.relative(root, f), src));
  }
  // Titles: the page's title and the section's number among the page's uploaded sections.
  const perPage = new Map<string, number>();
  for (const s of sections) {
    if (s.body.length < MIN_BODY) continue;
    const n = (perPage.get(s.file) ?? 0) + 1;
    perPage.set(s.file, n);
    s.title = `${s.pageTitle} (${n})`;
  }
  const documents = sections.filter((s) => s.title !== null);
  const uploaded = new Set(documents.map((s) => s.id));
  const answers = (id: string) =>
    sections.filter((s) => (s.id === id || s.parentId === id) && uploaded.has(s.id)).map((s) => s.id);
  const headingCount = new Map<string, number>();
  for (const s of sections) {
    const k = s.heading.toLowerCase();
    headingCount.set(k, (headingCount.get(k) ?? 0) + 1);
  }
  const queries: LabelledQuery[] = [];
  for (const s of sections) {
    if (headingCount.get(s.heading.toLowerCase())! > 1 || s.heading.length < 2) continue;
    const relevant = answers(s.id);
    if (relevant.length) queries.push({ query: s.heading, kind: 'heading', relevant });
  }
  const paraphrases = JSON.parse(readFileSync(path.join(dir, '..', `paraphrases.${name}.json`), 'utf8')) as Array<{
    q: string;
    section: string;
  }>;
  for (const p of paraphrases) {
    const relevant = answers(p.section);
    if (!relevant.length) throw new Error(`paraphrase "${p.q}" names no uploaded section: ${p.section}`);
    queries.push({ query: p.q, kind: 'paraphrase', relevant });
  }
  return { name, language, sections, documents, queries, bytes };
}
