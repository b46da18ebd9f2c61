'use client';
/**
 * A small Markdown renderer for chat answers, to React elements (never HTML strings, so an answer cannot inject
 * markup): fenced code blocks with a copy button, headings, lists, paragraphs, `code`, **bold**, *italic*, links
 * (http and https only) and citations `[n]`, which the caller renders (chips with their sources).
 */
import { Fragment, type ReactNode } from 'react';

export type CitationRenderer = (citation: string, key: string) => ReactNode;

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\n]+\*)|(\[[^\]\n]+\]\((https?:\/\/[^)\s]+)\))|(\[\d{1,3}\])/g;

export function inline(text: string, cite: CitationRenderer, keyBase: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = `${keyBase}-${i++}`;
    if (m[1])
      out.push(
        <code key={key} className="rounded bg-zinc-100 px-1 font-mono text-[0.9em]">
          {m[1].slice(1, -1)}
        </code>,
      );
    else if (m[2]) out.push(<strong key={key}>{m[2].slice(2, -2)}</strong>);
    else if (m[3]) out.push(<em key={key}>{m[3].slice(1, -1)}</em>);
    else if (m[4])
      out.push(
        <a key={key} href={m[5]} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline">
          {m[4].slice(1, m[4].indexOf(']('))}
        </a>,
      );
    else if (m[6]) out.push(<Fragment key={key}>{cite(m[6], key)}</Fragment>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export interface Block {
  kind: 'code' | 'heading' | 'ul' | 'ol' | 'p';
  text: string;
  lang?: string;
  level?: number;
  items?: string[];
}

/** The answer's blocks; an unclosed fence (an answer still streaming) is a code block up to the end. */
export function blocksOf(md: string): Block[] {
  const blocks: Block[] = [];
  const parts = md.split(/^```/m);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const nl = part.indexOf('\n');
      const lang = nl < 0 ? part.trim() : part.slice(0, nl).trim();
      const code = nl < 0 ? '' : part.slice(nl + 1).replace(/\n$/, '');
      blocks.push({ kind: 'code', text: code, lang });
      return;
    }
    const text = i > 0 ? part.replace(/^[^\n]*\n?/, '') : part; // the rest of a closing fence's line
    for (const chunk of text.split(/\n\s*\n/)) {
      const lines = chunk.split('\n').filter((l) => l.trim() !== '');
      if (!lines.length) continue;
      const h = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
      if (h && lines.length === 1) blocks.push({ kind: 'heading', level: h[1].length, text: h[2] });
      else if (lines.every((l) => /^\s*[-*]\s+/.test(l)))
        blocks.push({ kind: 'ul', text: '', items: lines.map((l) => l.replace(/^\s*[-*]\s+/, '')) });
      else if (lines.every((l) => /^\s*\d+[.)]\s+/.test(l)))
        blocks.push({ kind: 'ol', text: '', items: lines.map((l) => l.replace(/^\s*\d+[.)]\s+/, '')) });
      else blocks.push({ kind: 'p', text: lines.join('\n') });
    }
  });
  return blocks;
}

export function Markdown({
  text,
  cite,
  codeBlock,
}: {
  text: string;
  cite: CitationRenderer;
  codeBlock: (code: string, lang: string, key: string) => ReactNode;
}) {
  return (
    <>
      {blocksOf(text).map((b, i) => {
        const key = `b${i}`;
        switch (b.kind) {
          case 'code':
            return <Fragment key={key}>{codeBlock(b.text, b.lang ?? '', key)}</Fragment>;
          case 'heading':
            return (
              <p key={key} className="mb-2 font-semibold">
                {inline(b.text, cite, key)}
              </p>
            );
          case 'ul':
          case 'ol': {
            const List = b.kind;
            return (
              <List key={key} className={`mb-2 pl-5 ${b.kind === 'ul' ? 'list-disc' : 'list-decimal'}`}>
                {b.items!.map((it, j) => (
                  <li key={j}>{inline(it, cite, `${key}-${j}`)}</li>
                ))}
              </List>
            );
          }
          default:
            return (
              <p key={key} className="mb-2 whitespace-pre-wrap last:mb-0">
                {inline(b.text, cite, key)}
              </p>
            );
        }
      })}
    </>
  );
}
