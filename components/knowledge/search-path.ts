/**
 * The store and hybrid path a knowledge base's searches take, as GET /api/knowledge-bases/:id words it
 * (engine/knowledge/*-store.ts describe(): "embedded hybrid index (BM25 + cosine kNN, rescore fusion)",
 * "elasticsearch (kNN + BM25 rrf-client)"), read back into its parts so the page can say it in the UI's language.
 * A wording this does not know is shown as the server gave it.
 */
export type SearchPath =
  | { store: 'embedded'; fusion: 'weighted' | 'rescore' | 'rrf' }
  | { store: 'elasticsearch'; path: 'weighted' | 'rescore' | 'rrfServer' | 'rrfClient' | 'rrfPending' };

const EMBEDDED = /^embedded hybrid index \(BM25 \+ cosine kNN, (weighted|rescore|rrf) fusion\)$/;
const ELASTIC = /^elasticsearch \(kNN \+ BM25 (weighted|rescore|rrf-server|rrf-client|rrf, licence not read yet)\)$/;
const ES_PATHS = {
  weighted: 'weighted',
  rescore: 'rescore',
  'rrf-server': 'rrfServer',
  'rrf-client': 'rrfClient',
  'rrf, licence not read yet': 'rrfPending',
} as const;

export function parseSearchPath(text: string): SearchPath | null {
  const e = EMBEDDED.exec(text);
  if (e) return { store: 'embedded', fusion: e[1] as 'weighted' | 'rescore' | 'rrf' };
  const s = ELASTIC.exec(text);
  if (s) return { store: 'elasticsearch', path: ES_PATHS[s[1] as keyof typeof ES_PATHS] };
  return null;
}
