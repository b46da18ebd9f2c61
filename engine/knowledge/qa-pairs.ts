/**
 * Question–answer pairs for a Q&A knowledge base (chunking `qa`): a .csv whose first row names the columns (a column
 * called question / q / 问题 / 问 and one called answer / a / 答案 / 答; without such names, the first two columns,
 * the first row then being a pair too) or a .jsonl of objects with those keys. Each pair becomes one chunk: its
 * question is what is searched and embedded, its answer what a hit returns (ChunkMeta.context). A row with a question
 * and no answer (or the reverse) fails the document, naming the row, so a half-read file is never indexed.
 */
import { PaiError } from '../errors';
import { detectDelimiter } from './csv-to-text';

export interface QaPairs {
  /** The pairs one after another: "question\nanswer\n\n…". */
  text: string;
  /** Offsets of each pair's question and answer in `text`. */
  questions: Array<{ start: number; end: number }>;
  answers: Array<{ start: number; end: number }>;
}

const QUESTION = /^(question|q|问题|问|提问)$/i;
const ANSWER = /^(answer|a|答案|答|回答)$/i;

const failed = (reason: string) =>
  new PaiError('DOCUMENT_PARSE_FAILED', `the question–answer file could not be read: ${reason}`);

const clean = (v: unknown) =>
  (typeof v === 'string' ? v : v == null ? '' : String(v)).replaceAll('\u0000', '').replace(/\r\n?/g, '\n').trim();

function decode(bytes: Uint8Array | string): string {
  if (typeof bytes === 'string') return bytes.replace(/^\uFEFF/, '');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw failed('it is not UTF-8 text');
  }
}

function build(rows: Array<{ question: string; answer: string; where: string }>, maxChars: number): QaPairs {
  const out: QaPairs = { text: '', questions: [], answers: [] };
  for (const r of rows) {
    if (!r.question && !r.answer) continue;
    if (!r.question) throw failed(`${r.where} has an answer but no question`);
    if (!r.answer) throw failed(`${r.where} has a question but no answer`);
    const q = out.text.length;
    out.text += `${r.question}\n`;
    const a = out.text.length;
    out.text += `${r.answer}\n\n`;
    out.questions.push({ start: q, end: q + r.question.length });
    out.answers.push({ start: a, end: a + r.answer.length });
    if (out.text.length > maxChars)
      throw new PaiError(
        'DOCUMENT_TOO_LARGE',
        `the pairs have more than ${maxChars} characters of text (DOCUMENT_MAX_CHARS)`,
      );
  }
  if (!out.questions.length) throw new PaiError('EMPTY_DOCUMENT', 'the file holds no question–answer pair');
  return out;
}

async function fromCsv(source: string, maxChars: number): Promise<QaPairs> {
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(source, {
      delimiter: detectDelimiter(source),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (e) {
    throw failed((e as Error).message);
  }
  const header = (records[0] ?? []).map((h) => clean(h));
  const qCol = header.findIndex((h) => QUESTION.test(h));
  const aCol = header.findIndex((h) => ANSWER.test(h));
  const named = qCol >= 0 && aCol >= 0;
  const body = named ? records.slice(1) : records;
  return build(
    body.map((r, i) => ({
      question: clean(r[named ? qCol : 0]),
      answer: clean(r[named ? aCol : 1]),
      where: `row ${i + (named ? 2 : 1)}`,
    })),
    maxChars,
  );
}

function fromJsonl(source: string, maxChars: number): QaPairs {
  const rows = source.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw failed(`line ${i + 1} is not JSON`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw failed(`line ${i + 1} is not a JSON object`);
    const entries = Object.entries(v as Record<string, unknown>);
    const pick = (re: RegExp) => clean(entries.find(([k]) => re.test(k))?.[1]);
    return [{ question: pick(QUESTION), answer: pick(ANSWER), where: `line ${i + 1}` }];
  });
  return build(rows, maxChars);
}

/** The pairs of a .csv (`text/csv`) or .jsonl (`application/jsonl`) file. */
export async function qaPairs(bytes: Uint8Array | string, mime: string, maxChars: number): Promise<QaPairs> {
  const source = decode(bytes).replace(/\r\n?/g, '\n');
  if (mime === 'text/csv') return fromCsv(source, maxChars);
  if (mime === 'application/jsonl') return fromJsonl(source, maxChars);
  throw new PaiError('QA_DOCUMENT_TYPE', 'a Q&A knowledge base takes .csv or .jsonl files of question–answer pairs', {
    path: 'file',
  });
}
