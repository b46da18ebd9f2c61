/**
 * The red team's hostile uploads and imports (issue 43, section 1), made in code rather than kept as big files: each
 * is cheap to build (a repeat or a join) and its size is the one the issue measured. The acceptance journey, the
 * `limits` bench and the unit tests of the limits all send these, so they test the same inputs. Nothing here imports
 * the app (the acceptance suite may use it).
 */

/** A CSV whose header has `columns` columns (`c0,c1,…`) and one short row: 1.5 M columns make about 14 MB. */
export function csvWithColumns(columns: number): string {
  const names: string[] = new Array(columns);
  for (let i = 0; i < columns; i++) names[i] = `c${i}`;
  return `${names.join(',')}\nx\n`;
}

/** A one-column CSV of `rows` rows: 9 M rows make 18 MB. */
export function csvWithRows(rows: number): string {
  return `q\n${'a\n'.repeat(rows)}`;
}

/** A JSONL file of one row whose input is an array nested `depth` levels deep: 5 M levels make 10 MB. */
export function jsonlNested(depth: number): string {
  return `{"inputs":{"q":${'['.repeat(depth)}${']'.repeat(depth)}}}\n`;
}

/** YAML of flow sequences nested `depth` levels deep (`[[[…]]]`): 900,000 levels make 1.8 MB. */
export function yamlNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}\n`;
}

/**
 * A Dify DSL export whose graph holds `maps` small nodes (a map each, with a map inside): 30,000 of them make about
 * 2 MB of YAML, which still fits in the default request body limit once sent as JSON.
 */
export function difyWithSmallMaps(maps: number): string {
  const lines = [
    'app:',
    '  mode: workflow',
    '  name: small maps',
    'kind: app',
    'workflow:',
    '  graph:',
    '    edges: []',
  ];
  lines.push('    nodes:');
  for (let i = 0; i < maps; i++) lines.push(`    - data: {title: Node ${i}, type: note}`, `      id: n${i}`);
  return `${lines.join('\n')}\n`;
}

/** A dataset upload: a multipart form with the file and a name. */
export function datasetForm(filename: string, content: string, type = 'text/plain'): FormData {
  const form = new FormData();
  form.append('file', new File([content], filename, { type }));
  form.append('name', filename);
  return form;
}

/** The body of POST /api/workflows/import for a Dify DSL. */
export function difyImport(yaml: string): string {
  return JSON.stringify({ format: 'dify', content: yaml });
}

/** Where a probe goes and what it sends. */
export interface HostileProbe {
  /** A short name for tables and test titles. */
  name: string;
  /** What the issue measured it as. */
  what: string;
  path: '/api/datasets' | '/api/workflows/import';
  /** The body: a multipart form, or JSON text. */
  body: () => FormData | string;
}

/**
 * The probes of issue 43: first the sizes measured on the PostgreSQL setup, then the smaller ones that already stalled
 * the embedded default.
 */
export const HOSTILE_PROBES: HostileProbe[] = [
  {
    name: 'csv-1.5M-columns',
    what: '14 MB CSV of 1.5 M columns',
    path: '/api/datasets',
    body: () => datasetForm('columns.csv', csvWithColumns(1_500_000), 'text/csv'),
  },
  {
    name: 'csv-9M-rows',
    what: '18 MB CSV of 9 M rows',
    path: '/api/datasets',
    body: () => datasetForm('rows.csv', csvWithRows(9_000_000), 'text/csv'),
  },
  {
    name: 'jsonl-5M-deep',
    what: 'a JSONL row nested 5 M levels deep',
    path: '/api/datasets',
    body: () => datasetForm('deep.jsonl', jsonlNested(5_000_000)),
  },
  {
    name: 'dify-900k-deep',
    what: 'a Dify YAML of 900,000 nested [',
    path: '/api/workflows/import',
    body: () => difyImport(yamlNested(900_000)),
  },
  {
    name: 'dify-30k-maps',
    what: 'a 2 MB Dify YAML of 30,000 small maps',
    path: '/api/workflows/import',
    body: () => difyImport(difyWithSmallMaps(30_000)),
  },
  {
    name: 'csv-3M-rows',
    what: 'a CSV of 3 M rows (embedded default)',
    path: '/api/datasets',
    body: () => datasetForm('rows.csv', csvWithRows(3_000_000), 'text/csv'),
  },
  {
    name: 'jsonl-2M-deep',
    what: 'a JSONL row nested 2 M levels deep (embedded default)',
    path: '/api/datasets',
    body: () => datasetForm('deep.jsonl', jsonlNested(2_000_000)),
  },
  {
    name: 'dify-300k-deep',
    what: 'a Dify YAML nested 300,000 deep (embedded default)',
    path: '/api/workflows/import',
    body: () => difyImport(yamlNested(300_000)),
  },
];
