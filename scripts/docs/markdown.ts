/** Small Markdown helpers shared by the generators of docs/ (scripts/docs/generate.ts). */

/** Wraps prose at 120 columns, as the hand-written pages are. */
export function wrap(text: string, width = 120): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** Escapes what would end a table cell, and `<` outside code spans (GitHub would take `<model>` for HTML). */
export const cell = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;')))
    .join('')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
