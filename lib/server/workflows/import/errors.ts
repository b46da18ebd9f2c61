/**
 * What is wrong with an import's `content`: 400s with a code, a message that says where, and a JSON path into the
 * request body (`content`, `content.workflow.graph.nodes[3]`).
 */
import type { z } from 'zod';
import { PaiError } from '@/engine/errors';

/** The content does not parse (YAML or JSON syntax): where it stops parsing. */
export function unreadable(what: string, why: string, line?: number, column?: number): PaiError {
  const where = line ? ` at line ${line}${column ? `, column ${column}` : ''}` : '';
  return new PaiError('IMPORT_UNREADABLE', `the ${what} does not parse${where}: ${why}`, {
    path: 'content',
    ...(line ? { details: { line, column } } : {}),
  });
}

/** The content parses but is not the document it should be. */
export function invalidDocument(message: string, path = 'content'): PaiError {
  return new PaiError('IMPORT_INVALID_DOCUMENT', message, { path });
}

/** `content.a.b[0]` from a zod issue path. */
export function contentPath(path: ReadonlyArray<PropertyKey>): string {
  let out = 'content';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** Parses `data` with a loose shape schema, or throws IMPORT_INVALID_DOCUMENT at the first problem's path. */
export function shaped<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw invalidDocument(`this is not ${what}: ${issue.message}`, contentPath(issue.path));
}
