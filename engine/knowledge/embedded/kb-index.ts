/**
 * One knowledge base's index in the embedded store: chunk metadata + text, unit-length vectors in a flat Float32Array
 * (cosine kNN: exact scan, or a binary-code prefilter + exact re-rank past 20k chunks; see vector-search.ts) and a
 * BM25 inverted index, all in memory, persisted under one directory.
 *
 * Persistence is append-only so that adding a document costs O(its chunks), not O(the index):
 *   g<gen>.chunks.jsonl   one JSON line per slot (id, documentId, title, chunkIndex, start, end, page, text)
 *   g<gen>.vectors.f32    one row of `dimension` float32 per slot
 *   g<gen>.deletes.jsonl  one JSON array of removed slots per delete/replace
 *   manifest.json         { format, dimension, generation, slots, deleteLines } — the commit point, written
 *                         atomically (temp file + rename) after the data files are synced.
 * Bytes past what the manifest counts (a crash mid-append) are cut off on open. When removed slots outnumber
 * 30% of all slots, the index is compacted into a new generation.
 */
import { mkdir, open, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PaiError } from '../../errors';
import {
  DEFAULT_FUSION,
  type ChunkMeta,
  type ChunkRecord,
  type FusionOptions,
  type StoreHit,
  type StoreQuery,
} from '../types';
import { Bm25Index } from './bm25-index';
import { TopK } from './top-k';
import { BinaryCodes, dot, EXACT_LIMIT, knnSearch } from './vector-search';

const FORMAT = 1;

interface Manifest {
  format: number;
  kbId: string;
  dimension: number;
  generation: number;
  slots: number;
  deleteLines: number;
}

type StoredChunk = ChunkMeta;

/** Lines of a JSONL buffer: the first `limit` complete lines and the byte length they span. */
function splitLines(buf: Buffer, limit: number): { lines: string[]; bytes: number } {
  const lines: string[] = [];
  let pos = 0;
  while (lines.length < limit) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    lines.push(buf.toString('utf8', pos, nl));
    pos = nl + 1;
  }
  return { lines, bytes: pos };
}

export function normalise(v: ArrayLike<number>, dim: number): Float32Array {
  const out = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    const x = Number(v[i]);
    out[i] = x;
    n += x * x;
  }
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < dim; i++) out[i] /= n;
  return out;
}

export class KbIndex {
  private manifest: Manifest;
  private chunks: Array<StoredChunk | undefined> = [];
  private alive = new Uint8Array(1024);
  private vectors: Float32Array;
  private idToSlot = new Map<string, number>();
  private docSlots = new Map<string, Set<number>>();
  private bm25 = new Bm25Index();
  private dead = 0;
  private titles = new Map<string, string>();
  private codes: BinaryCodes;

  private constructor(
    readonly dir: string,
    manifest: Manifest,
  ) {
    this.manifest = manifest;
    this.vectors = new Float32Array(1024 * manifest.dimension);
    this.codes = new BinaryCodes(manifest.dimension);
  }

  get dimension(): number {
    return this.manifest.dimension;
  }

  get slots(): number {
    return this.manifest.slots;
  }

  get liveCount(): number {
    return this.manifest.slots - this.dead;
  }

  private file(kind: 'chunks' | 'vectors' | 'deletes', gen = this.manifest.generation) {
    return path.join(this.dir, `g${gen}.${kind}${kind === 'vectors' ? '.f32' : '.jsonl'}`);
  }

  static manifestPath(dir: string) {
    return path.join(dir, 'manifest.json');
  }

  static async exists(dir: string): Promise<boolean> {
    return existsSync(KbIndex.manifestPath(dir));
  }

  static async readManifest(dir: string): Promise<Manifest> {
    let m: Manifest;
    try {
      m = JSON.parse(await readFile(KbIndex.manifestPath(dir), 'utf8'));
    } catch (e) {
      throw new PaiError(
        'KNOWLEDGE_INDEX_CORRUPT',
        `cannot read the knowledge index manifest in ${dir}: ${(e as Error).message}`,
        { status: 500, cause: e },
      );
    }
    if (m.format !== FORMAT)
      throw new PaiError('KNOWLEDGE_INDEX_CORRUPT', `unsupported knowledge index format ${m.format} in ${dir}`, {
        status: 500,
      });
    return m;
  }

  static async create(dir: string, kbId: string, dimension: number): Promise<KbIndex> {
    await mkdir(dir, { recursive: true });
    const idx = new KbIndex(dir, { format: FORMAT, kbId, dimension, generation: 1, slots: 0, deleteLines: 0 });
    for (const kind of ['chunks', 'vectors', 'deletes'] as const) await writeFile(idx.file(kind), '');
    await idx.writeManifest();
    return idx;
  }

  static async load(dir: string): Promise<KbIndex> {
    const m = await KbIndex.readManifest(dir);
    const idx = new KbIndex(dir, { ...m, slots: 0, deleteLines: 0 });
    const dim = m.dimension;
    const [chunkBuf, vecBuf, delBuf] = await Promise.all([
      readFile(idx.file('chunks')),
      readFile(idx.file('vectors')),
      readFile(idx.file('deletes')),
    ]);
    const { lines, bytes } = splitLines(chunkBuf, m.slots);
    const vecBytes = m.slots * dim * 4;
    const dels = splitLines(delBuf, m.deleteLines);
    if (lines.length < m.slots || vecBuf.byteLength < vecBytes || dels.lines.length < m.deleteLines) {
      throw new PaiError(
        'KNOWLEDGE_INDEX_CORRUPT',
        `the knowledge index in ${dir} is shorter than its manifest says (${lines.length}/${m.slots} chunks); delete the folder and re-index`,
        { status: 500 },
      );
    }
    // Cut off anything appended after the last commit (a crash between the data write and the manifest).
    if (chunkBuf.byteLength > bytes) await truncate(idx.file('chunks'), bytes);
    if (vecBuf.byteLength > vecBytes) await truncate(idx.file('vectors'), vecBytes);
    if (delBuf.byteLength > dels.bytes) await truncate(idx.file('deletes'), dels.bytes);

    const aligned = vecBuf.byteOffset % 4 === 0 ? vecBuf : Buffer.from(vecBuf);
    const vecs = new Float32Array(aligned.buffer, aligned.byteOffset, m.slots * dim);
    idx.grow(m.slots);
    idx.vectors.set(vecs);
    for (let s = 0; s < lines.length; s++) {
      let c: StoredChunk;
      try {
        c = JSON.parse(lines[s]) as StoredChunk;
      } catch {
        throw new PaiError(
          'KNOWLEDGE_INDEX_CORRUPT',
          `line ${s + 1} of the knowledge index in ${dir} is not valid JSON; delete the folder and re-index`,
          { status: 500 },
        );
      }
      idx.place(s, c);
    }
    idx.manifest.slots = m.slots;
    for (const line of dels.lines) for (const s of JSON.parse(line) as number[]) idx.kill(s);
    idx.manifest.deleteLines = m.deleteLines;
    return idx;
  }

  private grow(slots: number) {
    if (slots <= this.alive.length) return;
    let cap = this.alive.length;
    while (cap < slots) cap *= 2;
    const a = new Uint8Array(cap);
    a.set(this.alive);
    this.alive = a;
    const v = new Float32Array(cap * this.manifest.dimension);
    v.set(this.vectors);
    this.vectors = v;
  }

  private intern(title: string): string {
    let t = this.titles.get(title);
    if (t === undefined) {
      t = title;
      this.titles.set(title, t);
    }
    return t;
  }

  /** Puts a chunk into memory at `slot` (its vector is already in place). */
  private place(slot: number, c: StoredChunk) {
    c.title = this.intern(c.title);
    this.chunks[slot] = c;
    this.alive[slot] = 1;
    const prev = this.idToSlot.get(c.id);
    if (prev !== undefined && prev !== slot) this.kill(prev);
    this.idToSlot.set(c.id, slot);
    let set = this.docSlots.get(c.documentId);
    if (!set) this.docSlots.set(c.documentId, (set = new Set()));
    set.add(slot);
    this.bm25.add(slot, `${c.title}\n${c.text}`);
  }

  private kill(slot: number) {
    if (!this.alive[slot]) return;
    const c = this.chunks[slot]!;
    this.alive[slot] = 0;
    this.chunks[slot] = undefined;
    this.dead++;
    if (this.idToSlot.get(c.id) === slot) this.idToSlot.delete(c.id);
    const set = this.docSlots.get(c.documentId);
    set?.delete(slot);
    if (set && set.size === 0) this.docSlots.delete(c.documentId);
    this.bm25.remove(slot);
  }

  private async writeManifest(m: Manifest = this.manifest) {
    const tmp = `${KbIndex.manifestPath(this.dir)}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify(m));
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, KbIndex.manifestPath(this.dir));
  }

  private static async append(file: string, data: string | Uint8Array) {
    const fh = await open(file, 'a');
    try {
      await fh.appendFile(data);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  /** Adds or replaces chunks; durable (and searchable) when it resolves. Callers serialise writes per KB. */
  async upsert(chunks: ChunkRecord[]): Promise<void> {
    if (!chunks.length) return;
    const dim = this.manifest.dimension;
    for (const c of chunks) {
      if (c.vector.length !== dim) {
        throw new PaiError(
          'EMBEDDING_DIMENSION_MISMATCH',
          `chunk ${c.id} has a ${c.vector.length}-d vector; this knowledge base's index is ${dim}-d`,
          { status: 409 },
        );
      }
    }
    const first = this.manifest.slots;
    const vecs = new Float32Array(chunks.length * dim);
    const lines: string[] = [];
    const stored: StoredChunk[] = [];
    chunks.forEach((c, i) => {
      vecs.set(normalise(c.vector, dim), i * dim);
      const s: StoredChunk = {
        id: c.id,
        documentId: c.documentId,
        title: c.title,
        chunkIndex: c.chunkIndex,
        start: c.start,
        end: c.end,
        page: c.page ?? null,
        text: c.text,
      };
      stored.push(s);
      lines.push(JSON.stringify(s));
    });
    const replaced = chunks.map((c) => this.idToSlot.get(c.id)).filter((s): s is number => s !== undefined);
    await KbIndex.append(this.file('chunks'), `${lines.join('\n')}\n`);
    await KbIndex.append(this.file('vectors'), new Uint8Array(vecs.buffer));
    if (replaced.length) await KbIndex.append(this.file('deletes'), `${JSON.stringify(replaced)}\n`);
    // Commit on disk first, then make the chunks visible: what a search sees is always durable.
    const next = {
      ...this.manifest,
      slots: first + chunks.length,
      deleteLines: this.manifest.deleteLines + (replaced.length ? 1 : 0),
    };
    await this.writeManifest(next);
    this.manifest = next;
    this.grow(first + chunks.length);
    this.vectors.set(vecs, first * dim);
    stored.forEach((s, i) => this.place(first + i, s));
    await this.maybeCompact();
  }

  async deleteDocument(documentId: string): Promise<number> {
    const slots = [...(this.docSlots.get(documentId) ?? [])];
    if (!slots.length) return 0;
    await KbIndex.append(this.file('deletes'), `${JSON.stringify(slots)}\n`);
    const next = { ...this.manifest, deleteLines: this.manifest.deleteLines + 1 };
    await this.writeManifest(next);
    this.manifest = next;
    for (const s of slots) this.kill(s);
    await this.maybeCompact();
    return slots.length;
  }

  count(documentId?: string): number {
    return documentId === undefined ? this.liveCount : (this.docSlots.get(documentId)?.size ?? 0);
  }

  /** Rewrites live slots into a new generation when removed ones dominate (≥ 30% and ≥ 256). */
  private async maybeCompact() {
    if (this.dead < 256 || this.dead < 0.3 * this.manifest.slots) return;
    await this.compact();
  }

  async compact(): Promise<void> {
    const dim = this.manifest.dimension;
    const oldGen = this.manifest.generation;
    const gen = oldGen + 1;
    const live: number[] = [];
    for (let s = 0; s < this.manifest.slots; s++) if (this.alive[s]) live.push(s);
    const vecs = new Float32Array(live.length * dim);
    const lines: string[] = [];
    live.forEach((s, i) => {
      vecs.set(this.vectors.subarray(s * dim, (s + 1) * dim), i * dim);
      lines.push(JSON.stringify(this.chunks[s]));
    });
    await writeFile(this.file('chunks', gen), lines.length ? `${lines.join('\n')}\n` : '');
    await writeFile(this.file('vectors', gen), new Uint8Array(vecs.buffer));
    await writeFile(this.file('deletes', gen), '');
    const liveChunks = live.map((s) => this.chunks[s]!);
    // Rebuild memory in the new slot numbering, then commit.
    this.chunks = [];
    this.alive = new Uint8Array(Math.max(1024, live.length));
    this.vectors = new Float32Array(Math.max(1024, live.length) * dim);
    this.vectors.set(vecs);
    this.idToSlot.clear();
    this.docSlots.clear();
    this.bm25 = new Bm25Index();
    this.codes.reset();
    this.dead = 0;
    liveChunks.forEach((c, i) => this.place(i, c));
    this.manifest = { ...this.manifest, generation: gen, slots: live.length, deleteLines: 0 };
    await this.writeManifest();
    for (const kind of ['chunks', 'vectors', 'deletes'] as const) await rm(this.file(kind, oldGen), { force: true });
  }

  // ── search ──────────────────────────────────────────────────────────────────────────────────────────────────

  private cosine(slot: number, q: Float32Array): number {
    return dot(q, this.vectors, slot * q.length);
  }

  /** kNN (exact up to EXACT_LIMIT rows, else binary-code prefilter + exact re-rank); knnScore = (1 + cos) / 2. */
  private knn(
    q: Float32Array,
    k: number,
    filter: ((slot: number) => boolean) | undefined,
    only: number[] | undefined,
  ): Array<{ slot: number; score: number }> {
    const rows = this.manifest.slots;
    return knnSearch({
      q,
      vectors: this.vectors,
      rows,
      k,
      alive: this.alive,
      filter,
      only,
      codes: this.codes,
      exactLimit: this.liveCount > EXACT_LIMIT ? EXACT_LIMIT : Infinity,
    }).map(({ slot, cos }) => ({ slot, score: (1 + cos) / 2 }));
  }

  private hit(slot: number, score: number, bm25: number | null, knn: number | null): StoreHit {
    const c = this.chunks[slot]!;
    return {
      id: c.id,
      documentId: c.documentId,
      title: c.title,
      chunkIndex: c.chunkIndex,
      start: c.start,
      end: c.end,
      page: c.page,
      text: c.text,
      score,
      bm25,
      knn,
    };
  }

  search(q: StoreQuery, fusionDefaults: FusionOptions = DEFAULT_FUSION): StoreHit[] {
    const topK = Math.max(0, Math.floor(q.topK));
    if (topK === 0 || this.liveCount === 0) return [];
    const fusion = { ...fusionDefaults, ...q.fusion };
    const alive = this.alive;
    const only = q.documentIds ? new Set(q.documentIds) : null;
    const filter = only ? (s: number) => only.has(this.chunks[s]!.documentId) : undefined;
    const accept = filter ? (s: number) => alive[s] === 1 && filter(s) : (s: number) => alive[s] === 1;
    // A document filter usually leaves few rows: scan exactly those.
    let onlySlots: number[] | undefined;
    if (only) {
      onlySlots = [];
      for (const d of only) for (const s of this.docSlots.get(d) ?? []) onlySlots.push(s);
      if (onlySlots.length > EXACT_LIMIT) onlySlots = undefined;
    }
    let qv: Float32Array | undefined;
    if (q.mode !== 'bm25') {
      if (!q.vector)
        throw new PaiError('QUERY_VECTOR_REQUIRED', `${q.mode} search needs a query vector`, { status: 400 });
      if (q.vector.length !== this.dimension) {
        throw new PaiError(
          'EMBEDDING_DIMENSION_MISMATCH',
          `the query vector is ${q.vector.length}-d; this knowledge base's index is ${this.dimension}-d`,
          { status: 409 },
        );
      }
      qv = normalise(q.vector, this.dimension);
    }

    if (q.mode === 'vector')
      return this.knn(qv!, topK, filter, onlySlots).map((h) => this.hit(h.slot, h.score, null, h.score));

    const bm = this.bm25.score(q.text, accept);
    try {
      if (q.mode === 'bm25') {
        const top = new TopK(topK);
        for (let i = 0; i < bm.count; i++) {
          const s = bm.slotAt(i);
          top.push(bm.scoreOf(s), s);
        }
        return top.sorted().map((h) => this.hit(h.slot, h.score, h.score, null));
      }
      const window = topK * fusion.numCandidatesFactor;
      const knn = this.knn(qv!, window, filter, onlySlots);
      if (fusion.method === 'rescore') {
        const top = new TopK(topK);
        const byslot = new Map<number, number>();
        for (const h of knn) {
          byslot.set(h.slot, h.score);
          top.push(fusion.knnWeight * h.score + fusion.bm25Weight * bm.scoreOf(h.slot), h.slot);
        }
        return top.sorted().map((h) => this.hit(h.slot, h.score, bm.scoreOf(h.slot), byslot.get(h.slot)!));
      }
      // RRF over the top `window` of each list.
      const bmTop = new TopK(window);
      for (let i = 0; i < bm.count; i++) {
        const s = bm.slotAt(i);
        bmTop.push(bm.scoreOf(s), s);
      }
      const fused = new Map<number, number>();
      const add = (list: Array<{ slot: number }>) =>
        list.forEach((h, rank) => fused.set(h.slot, (fused.get(h.slot) ?? 0) + 1 / (fusion.rankConstant + rank + 1)));
      add(bmTop.sorted());
      add(knn);
      const top = new TopK(topK);
      for (const [s, score] of fused) top.push(score, s);
      return top.sorted().map((h) => this.hit(h.slot, h.score, bm.scoreOf(h.slot), (1 + this.cosine(h.slot, qv!)) / 2));
    } finally {
      bm.release();
    }
  }
}
