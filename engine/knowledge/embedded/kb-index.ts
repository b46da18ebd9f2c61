/**
 * One knowledge base's index in the embedded store: chunk metadata + text, unit-length vectors in a flat Float32Array
 * (cosine kNN: exact scan, or a binary-code prefilter + exact re-rank past 20k chunks; see vector-search.ts) and a
 * BM25 inverted index, all in memory, persisted under one directory in an append-only format (kb-index-files.ts)
 * whose commit point is the manifest. When removed slots outnumber 30% of all slots, the index is compacted into a
 * new generation. Searching is kb-search.ts.
 *
 * Only chunks and vectors are on disk: the BM25 postings are rebuilt from the chunks' text whenever an index is
 * opened, so an index written by an earlier analyzer (analyzer.ts, ANALYZER_VERSION 1: CJK bigrams) is searched with
 * the current one (jieba words) from its next open, without a migration step. A chunk's `uncovered` mark (the
 * embedder could not read it) is stored with it; chunks written before marks existed count as covered until their
 * document is uploaded again.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { PaiError } from '../../errors';
import { DEFAULT_FUSION, type ChunkRecord, type FusionOptions, type StoreHit, type StoreQuery } from '../types';
import { headingsText } from '../headings-field';
import { checkVector } from '../chunk-vector';
import { FieldedBm25 } from './fielded-bm25';
import {
  appendDurably,
  commitManifest,
  DATA_KINDS,
  dataFile,
  FORMAT,
  indexExists,
  readCommitted,
  readManifest,
  type DataKind,
  type Manifest,
} from './kb-index-files';
import { normalise, searchIndex, type IndexView, type StoredChunk } from './kb-search';
import { BinaryCodes } from './vector-search';

export { normalise } from './kb-search';

export class KbIndex {
  private manifest: Manifest;
  private chunks: Array<StoredChunk | undefined> = [];
  private alive = new Uint8Array(1024);
  /** alive and covered by the embedder: the slots kNN may return. */
  private knnAlive = new Uint8Array(1024);
  private uncovered = 0;
  private vectors: Float32Array;
  private idToSlot = new Map<string, number>();
  private docSlots = new Map<string, Set<number>>();
  private bm25 = new FieldedBm25();
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

  private file(kind: DataKind, gen = this.manifest.generation) {
    return dataFile(this.dir, kind, gen);
  }

  static async exists(dir: string): Promise<boolean> {
    return indexExists(dir);
  }

  static async create(dir: string, kbId: string, dimension: number): Promise<KbIndex> {
    await mkdir(dir, { recursive: true });
    const idx = new KbIndex(dir, { format: FORMAT, kbId, dimension, generation: 1, slots: 0, deleteLines: 0 });
    for (const kind of DATA_KINDS) await writeFile(idx.file(kind), '');
    await idx.writeManifest();
    return idx;
  }

  static async load(dir: string): Promise<KbIndex> {
    const m = await readManifest(dir);
    const idx = new KbIndex(dir, { ...m, slots: 0, deleteLines: 0 });
    const { chunkLines: lines, vectors: vecs, deleteLines } = await readCommitted(dir, m);
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
        );
      }
      idx.place(s, c);
    }
    idx.manifest.slots = m.slots;
    for (const line of deleteLines) for (const s of JSON.parse(line) as number[]) idx.kill(s);
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
    const k = new Uint8Array(cap);
    k.set(this.knnAlive);
    this.knnAlive = k;
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
    if (c.uncovered) this.uncovered++;
    else this.knnAlive[slot] = 1;
    const prev = this.idToSlot.get(c.id);
    if (prev !== undefined && prev !== slot) this.kill(prev);
    this.idToSlot.set(c.id, slot);
    let set = this.docSlots.get(c.documentId);
    if (!set) this.docSlots.set(c.documentId, (set = new Set()));
    set.add(slot);
    this.bm25.add(slot, `${c.title}\n${c.text}`, headingsText(c));
  }

  private kill(slot: number) {
    if (!this.alive[slot]) return;
    const c = this.chunks[slot]!;
    this.alive[slot] = 0;
    this.knnAlive[slot] = 0;
    if (c.uncovered) this.uncovered--;
    this.chunks[slot] = undefined;
    this.dead++;
    if (this.idToSlot.get(c.id) === slot) this.idToSlot.delete(c.id);
    const set = this.docSlots.get(c.documentId);
    set?.delete(slot);
    if (set && set.size === 0) this.docSlots.delete(c.documentId);
    this.bm25.remove(slot);
  }

  private async writeManifest(m: Manifest = this.manifest) {
    await commitManifest(this.dir, m);
  }

  /** Adds or replaces chunks; durable (and searchable) when it resolves. Callers serialise writes per KB. */
  async upsert(chunks: ChunkRecord[]): Promise<void> {
    if (!chunks.length) return;
    const dim = this.manifest.dimension;
    for (const c of chunks) checkVector(c, dim);
    const first = this.manifest.slots;
    const vecs = new Float32Array(chunks.length * dim);
    const lines: string[] = [];
    const stored: StoredChunk[] = [];
    chunks.forEach((c, i) => {
      // A chunk without a vector (not covered) keeps zeros in its slot, which kNN never reads (knnAlive).
      if (c.vector) vecs.set(normalise(c.vector, dim), i * dim);
      const s: StoredChunk = {
        id: c.id,
        documentId: c.documentId,
        title: c.title,
        chunkIndex: c.chunkIndex,
        start: c.start,
        end: c.end,
        page: c.page ?? null,
        text: c.text,
        ...(c.headingPath?.length ? { headingPath: c.headingPath } : {}),
        ...(c.context ? { context: c.context } : {}),
        ...(c.covered === false ? { uncovered: true as const } : {}),
      };
      stored.push(s);
      lines.push(JSON.stringify(s));
    });
    const replaced = chunks.map((c) => this.idToSlot.get(c.id)).filter((s): s is number => s !== undefined);
    await appendDurably(this.file('chunks'), `${lines.join('\n')}\n`);
    await appendDurably(this.file('vectors'), new Uint8Array(vecs.buffer));
    if (replaced.length) await appendDurably(this.file('deletes'), `${JSON.stringify(replaced)}\n`);
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
    await appendDurably(this.file('deletes'), `${JSON.stringify(slots)}\n`);
    const next = { ...this.manifest, deleteLines: this.manifest.deleteLines + 1 };
    await this.writeManifest(next);
    this.manifest = next;
    for (const s of slots) this.kill(s);
    await this.maybeCompact();
    return slots.length;
  }

  listChunks(documentId: string): ChunkRecord[] {
    const dim = this.manifest.dimension;
    return [...(this.docSlots.get(documentId) ?? [])]
      .map((s) => ({ s, c: this.chunks[s]! }))
      .sort((a, b) => a.c.chunkIndex - b.c.chunkIndex)
      .map(({ s, c }) => {
        const { uncovered, ...meta } = c;
        return uncovered
          ? { ...meta, covered: false }
          : { ...meta, vector: this.vectors.slice(s * dim, (s + 1) * dim) };
      });
  }

  count(documentId?: string): number {
    return documentId === undefined ? this.liveCount : (this.docSlots.get(documentId)?.size ?? 0);
  }

  /** Live chunks the embedder does not cover (left out of kNN). */
  get uncoveredCount(): number {
    return this.uncovered;
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
    this.knnAlive = new Uint8Array(this.alive.length);
    this.uncovered = 0;
    this.vectors = new Float32Array(Math.max(1024, live.length) * dim);
    this.vectors.set(vecs);
    this.idToSlot.clear();
    this.docSlots.clear();
    this.bm25 = new FieldedBm25();
    this.codes.reset();
    this.dead = 0;
    liveChunks.forEach((c, i) => this.place(i, c));
    this.manifest = { ...this.manifest, generation: gen, slots: live.length, deleteLines: 0 };
    await this.writeManifest();
    for (const kind of DATA_KINDS) await rm(this.file(kind, oldGen), { force: true });
  }

  /** `exactLimit`: candidate rows up to which kNN scans exactly (KNOWLEDGE_EXACT_KNN_LIMIT; default its default). */
  search(q: StoreQuery, fusionDefaults: FusionOptions = DEFAULT_FUSION, exactLimit?: number): StoreHit[] {
    const view: IndexView = {
      dimension: this.manifest.dimension,
      rows: this.manifest.slots,
      liveCount: this.liveCount,
      uncovered: this.uncovered,
      chunks: this.chunks,
      alive: this.alive,
      knnAlive: this.knnAlive,
      vectors: this.vectors,
      docSlots: this.docSlots,
      bm25: this.bm25,
      codes: this.codes,
    };
    return searchIndex(view, q, fusionDefaults, exactLimit);
  }
}
