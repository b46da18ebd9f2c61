/**
 * Long-term memory on top of a MemoryStore and any Embedder: saving (de-duplicated per scope by the store),
 * recall by cosine similarity with exponential time decay (half-life on `updatedAt`), top-K above a threshold,
 * and the system-prompt block that injects recalled memories within a token budget (whole entries only).
 */
import type { Embedder, MemoryHandle, MemoryScope, MemoryStore, RecalledMemory } from '../../node-kit/agent-services';
import { estimateTextTokens } from '../tokens';

export interface RecallOptions {
  topK: number;
  /** Minimum decayed score (cosine × decay) to be recalled. */
  minScore: number;
  halfLifeDays: number;
  /** How many of the most recently updated memories are scored (no vector index: ranking happens here). */
  candidateLimit?: number;
}

export const DEFAULT_RECALL: RecallOptions = { topK: 5, minScore: 0.3, halfLifeDays: 30, candidateLimit: 2000 };

export function cosine(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let dot = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export function decay(updatedAt: string, halfLifeDays: number, now = Date.now()): number {
  if (!(halfLifeDays > 0)) return 1;
  const ageDays = Math.max(0, now - Date.parse(updatedAt)) / 86_400_000;
  return 0.5 ** (ageDays / halfLifeDays);
}

export const embedderIdOf = (e: Embedder) => e.id ?? `embedder-${e.dimension}`;

export function createMemoryHandle(o: {
  store: MemoryStore;
  embedder: Embedder;
  /** Where saves go. */
  saveScope: MemoryScope;
  /** What recall reads. */
  recallScopes: MemoryScope[];
  recall?: Partial<RecallOptions>;
  now?: () => number;
}): MemoryHandle {
  const opts = { ...DEFAULT_RECALL, ...o.recall };
  const embedderId = embedderIdOf(o.embedder);
  const embedOne = async (text: string) => {
    const [v] = await o.embedder.embed([text]);
    if (!Array.isArray(v) || v.length === 0) throw new Error('the embedder returned no vector');
    return v;
  };
  return {
    async save(content) {
      const text = content.trim();
      if (!text) throw new Error('nothing to remember: the content is empty');
      const { record, created } = await o.store.save({
        scope: o.saveScope,
        content: text,
        embedding: await embedOne(text),
        embedderId,
      });
      return { id: record.id, created };
    },
    async recall(query, r = {}) {
      const topK = r.topK ?? opts.topK;
      const q = await embedOne(query);
      const now = o.now?.() ?? Date.now();
      const scored: RecalledMemory[] = [];
      for (const m of await o.store.candidates(o.recallScopes, embedderId, opts.candidateLimit ?? 2000)) {
        const similarity = cosine(q, m.embedding);
        const score = similarity * decay(m.updatedAt, opts.halfLifeDays, now);
        if (score >= opts.minScore)
          scored.push({ id: m.id, content: m.content, score, similarity, scope: m.scope, updatedAt: m.updatedAt });
      }
      return scored.sort((a, b) => b.score - a.score).slice(0, topK);
    },
  };
}

/** The system-prompt block; entries are added best first while they fit `tokenBudget` (never cut mid-entry). */
export function memoryPromptBlock(
  memories: RecalledMemory[],
  tokenBudget: number,
): { text: string; used: RecalledMemory[] } {
  const header = 'Long-term memory (facts saved in earlier runs; most relevant first — use them when they help):';
  let budget = tokenBudget - estimateTextTokens(header);
  const used: RecalledMemory[] = [];
  const lines: string[] = [];
  for (const m of memories) {
    const line = `- ${m.content} (saved ${m.updatedAt.slice(0, 10)})`;
    const cost = estimateTextTokens(line) + 1;
    if (cost > budget) continue; // a shorter, less relevant entry may still fit
    budget -= cost;
    used.push(m);
    lines.push(line);
  }
  return { text: used.length ? `${header}\n${lines.join('\n')}` : '', used };
}
