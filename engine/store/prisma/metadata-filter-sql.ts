/**
 * A search's metadata filter (engine/knowledge/metadata.ts) as a condition on `knowledge_documents.metadata`, the
 * JSONB column, for PGlite and PostgreSQL alike.
 */
import type { MetadataFilter } from '../../knowledge/metadata';

/**
 * The SQL condition (PostgreSQL, on the `metadata` JSONB column) a filter stands for, with its parameters numbered
 * from `first`. Fields and values are parameters, never SQL text.
 */
export function metadataFilterSql(filter: MetadataFilter, first: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => (params.push(v), `$${first + params.length - 1}`);
  const parts: string[] = [];
  for (const [field, c] of Object.entries(filter)) {
    if (typeof c !== 'object') {
      parts.push(`metadata @> ${p(JSON.stringify({ [field]: c }))}::jsonb`);
      continue;
    }
    if (c.in)
      parts.push(`(${c.in.map((v) => `metadata @> ${p(JSON.stringify({ [field]: v }))}::jsonb`).join(' OR ')})`);
    let named: string | undefined; // the field's parameter, only once a range uses it (an unused one has no type)
    const f = () => (named ??= `${p(field)}::text`);
    const ops = [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ] as const;
    for (const [key, op] of ops) {
      const b = c[key];
      if (b === undefined) continue;
      parts.push(
        typeof b === 'number'
          ? `(jsonb_typeof(metadata -> ${f()}) = 'number' AND (metadata ->> ${f()})::numeric ${op} ${p(b)}::numeric)`
          : `(jsonb_typeof(metadata -> ${f()}) = 'string' AND metadata ->> ${f()} ~ '^\\d{4}-\\d{2}-\\d{2}' ` +
              `AND metadata ->> ${f()} ${op} ${p(b)}::text)`,
      );
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : 'TRUE', params };
}
