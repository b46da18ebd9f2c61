/**
 * The on-disk format of one knowledge base's embedded index (kb-index.ts keeps it in memory). Persistence is
 * append-only so that adding a document costs O(its chunks), not O(the index):
 *   g<gen>.chunks.jsonl   one JSON line per slot (id, documentId, title, chunkIndex, start, end, page, text)
 *   g<gen>.vectors.f32    one row of `dimension` float32 per slot
 *   g<gen>.deletes.jsonl  one JSON array of removed slots per delete/replace
 *   manifest.json         { format, dimension, generation, slots, deleteLines } — the commit point, written
 *                         atomically (temp file + rename) after the data files are synced.
 * Bytes past what the manifest counts (a crash mid-append) are cut off on open.
 */
import { existsSync } from 'node:fs';
import { open, readFile, rename, truncate } from 'node:fs/promises';
import path from 'node:path';
import { PaiError } from '../../errors';

export const FORMAT = 1;

export interface Manifest {
  format: number;
  kbId: string;
  dimension: number;
  generation: number;
  slots: number;
  deleteLines: number;
}

export type DataKind = 'chunks' | 'vectors' | 'deletes';
export const DATA_KINDS = ['chunks', 'vectors', 'deletes'] as const;

export function dataFile(dir: string, kind: DataKind, gen: number): string {
  // A file under DATA_DIR, not of the app: Next's output tracing need not follow it.
  return path.join(/* turbopackIgnore: true */ dir, `g${gen}.${kind}${kind === 'vectors' ? '.f32' : '.jsonl'}`);
}

export function manifestPath(dir: string): string {
  return path.join(dir, 'manifest.json');
}

export function indexExists(dir: string): boolean {
  return existsSync(manifestPath(dir));
}

export async function readManifest(dir: string): Promise<Manifest> {
  let m: Manifest;
  try {
    m = JSON.parse(await readFile(manifestPath(dir), 'utf8'));
  } catch (e) {
    throw new PaiError(
      'KNOWLEDGE_INDEX_CORRUPT',
      `cannot read the knowledge index manifest in ${dir}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (m.format !== FORMAT)
    throw new PaiError('KNOWLEDGE_INDEX_CORRUPT', `unsupported knowledge index format ${m.format} in ${dir}`);
  return m;
}

/** Writes the manifest to a temp file, syncs it and renames it over the old one: the commit point. */
export async function commitManifest(dir: string, m: Manifest): Promise<void> {
  const tmp = `${manifestPath(dir)}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(m));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, manifestPath(dir));
}

/** Appends to a data file and syncs it before resolving. */
export async function appendDurably(file: string, data: string | Uint8Array): Promise<void> {
  const fh = await open(file, 'a');
  try {
    await fh.appendFile(data);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

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

/**
 * Reads what manifest `m` commits of the data files in `dir`: one chunk line and one vector row per slot, and the
 * delete lines. Anything appended after the last commit (a crash between the data write and the manifest) is cut off.
 */
export async function readCommitted(
  dir: string,
  m: Manifest,
): Promise<{ chunkLines: string[]; vectors: Float32Array; deleteLines: string[] }> {
  const dim = m.dimension;
  const file = (kind: DataKind) => dataFile(dir, kind, m.generation);
  const [chunkBuf, vecBuf, delBuf] = await Promise.all([
    readFile(file('chunks')),
    readFile(file('vectors')),
    readFile(file('deletes')),
  ]);
  const { lines, bytes } = splitLines(chunkBuf, m.slots);
  const vecBytes = m.slots * dim * 4;
  const dels = splitLines(delBuf, m.deleteLines);
  if (lines.length < m.slots || vecBuf.byteLength < vecBytes || dels.lines.length < m.deleteLines) {
    throw new PaiError(
      'KNOWLEDGE_INDEX_CORRUPT',
      `the knowledge index in ${dir} is shorter than its manifest says (${lines.length}/${m.slots} chunks); ` +
        'delete the folder and re-index',
    );
  }
  if (chunkBuf.byteLength > bytes) await truncate(file('chunks'), bytes);
  if (vecBuf.byteLength > vecBytes) await truncate(file('vectors'), vecBytes);
  if (delBuf.byteLength > dels.bytes) await truncate(file('deletes'), dels.bytes);

  const aligned = vecBuf.byteOffset % 4 === 0 ? vecBuf : Buffer.from(vecBuf);
  const vectors = new Float32Array(aligned.buffer, aligned.byteOffset, m.slots * dim);
  return { chunkLines: lines, vectors, deleteLines: dels.lines };
}
