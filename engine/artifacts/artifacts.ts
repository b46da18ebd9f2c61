/**
 * The artifact service: stores a run's files (bytes in the blob store, a row in the database), reads them back only
 * within the run's workspace, and sweeps. The blob is written before its row, so a row always has its bytes; a
 * crash in between leaves a blob without a row, which the orphan sweep removes — as it removes the blobs of runs
 * that were deleted (their rows go with them, ON DELETE CASCADE). With ARTIFACTS_RETENTION_DAYS, older artifacts
 * are deleted too (row, then blob).
 */
import { createHash, randomBytes } from 'node:crypto';
import { PaiError } from '../errors';
import type { ArtifactRecord, ArtifactRef, ArtifactStore, BlobStore, NodeArtifacts, StoredArtifact } from './types';

export interface ArtifactsOptions {
  /** Largest file one artifact may hold (ARTIFACTS_MAX_BYTES). */
  maxBytes: number;
  /** 0: keep; else artifacts older than this many days are deleted by the sweep (ARTIFACTS_RETENTION_DAYS). */
  retentionDays: number;
  /** A blob without a row is only an orphan once it is this old (a save may be between its two writes). */
  orphanGraceMs?: number;
}

const ORPHAN_GRACE_MS = 60 * 60_000;
const BATCH = 500;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const ID = /^art_[a-f0-9]{24}$/;

export const artifactUrl = (id: string) => `/api/artifacts/${id}`;

export const notFound = (id: string) =>
  new PaiError('ARTIFACT_NOT_FOUND', `artifact ${String(id).slice(0, 64)} not found`);

/** The content type without parameters, lower case; anything unlike a MIME type is stored as octet-stream. */
export function cleanContentType(type: string): string {
  const t = type.split(';')[0].trim().toLowerCase();
  return CONTENT_TYPE.test(t) ? t : 'application/octet-stream';
}

/** A file name fit for a header: no path, no control characters or quotes, at most 120 characters. */
export function cleanName(name: string, fallback: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/[\u0000-\u001f\u007f"\\]/g, '')
    .trim()
    .slice(0, 120);
  return base || fallback;
}

export function refOf(r: Pick<ArtifactRecord, 'id' | 'contentType' | 'bytes' | 'name'>): ArtifactRef {
  return { artifactId: r.id, url: artifactUrl(r.id), contentType: r.contentType, bytes: r.bytes, name: r.name };
}

export class Artifacts implements NodeArtifacts {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(
    readonly store: ArtifactStore,
    readonly blobs: BlobStore,
    private readonly o: ArtifactsOptions,
  ) {}

  async save(
    runId: string,
    nodeId: string,
    file: { bytes: Uint8Array; contentType: string; name: string; key?: string },
  ): Promise<ArtifactRef> {
    if (file.bytes.byteLength > this.o.maxBytes)
      throw new PaiError(
        'ARTIFACT_TOO_LARGE',
        `the file is ${file.bytes.byteLength} bytes, more than an artifact may hold (${this.o.maxBytes}, ` +
          'ARTIFACTS_MAX_BYTES)',
      );
    const hex = file.key
      ? createHash('sha256').update(`${runId}\n${file.key}`).digest('hex').slice(0, 24)
      : randomBytes(12).toString('hex');
    const id = `art_${hex}`;
    const storageKey = `runs/${runId}/${id}`;
    const contentType = cleanContentType(file.contentType);
    // Hashed off the event loop (WebCrypto runs in the thread pool): an artifact may be tens of megabytes.
    const digest = await crypto.subtle.digest('SHA-256', file.bytes as Uint8Array<ArrayBuffer>);
    const sha256 = Buffer.from(digest).toString('hex');
    await this.blobs.put(storageKey, file.bytes, contentType);
    const row = await this.store
      .upsert({
        id,
        runId,
        nodeId,
        name: cleanName(file.name, id),
        contentType,
        bytes: file.bytes.byteLength,
        sha256,
        storageKey,
      })
      .catch(async (e) => {
        // No row, no artifact: its blob goes (the sweep would take it otherwise). A row of an earlier save with
        // the same key still points at it; then it must stay.
        if (!(await this.store.get(id).catch(() => null))) await this.blobs.delete(storageKey).catch(() => {});
        throw e;
      });
    return refOf(row);
  }

  async read(runId: string, artifactId: string): Promise<StoredArtifact> {
    const workspaceId = await this.store.workspaceOfRun(runId);
    if (!workspaceId) throw notFound(artifactId);
    return this.readInWorkspace(artifactId, workspaceId);
  }

  /** For GET /api/artifacts/:id: an artifact of `workspaceId`, else 404. */
  async readInWorkspace(artifactId: string, workspaceId: string): Promise<StoredArtifact> {
    const record = ID.test(artifactId) ? await this.store.getInWorkspace(artifactId, workspaceId) : null;
    return this.withBytes(record, artifactId);
  }

  /** For the published API: an artifact of that run, else 404. */
  async readOfRun(artifactId: string, runId: string): Promise<StoredArtifact> {
    const record = ID.test(artifactId) ? await this.store.get(artifactId) : null;
    return this.withBytes(record?.runId === runId ? record : null, artifactId);
  }

  private async withBytes(record: ArtifactRecord | null, id: string): Promise<StoredArtifact> {
    if (!record) throw notFound(id);
    const bytes = await this.blobs.get(record.storageKey);
    if (!bytes) throw notFound(id); // its row outlived its blob (deleted by hand): nothing to serve
    return { record, bytes };
  }

  /**
   * Deletes artifacts past ARTIFACTS_RETENTION_DAYS (row, then blob) and blobs that have no row (a deleted run's,
   * or a save that crashed between its writes) once they are older than the grace period. Runs one at a time.
   */
  sweep(now = new Date()): Promise<{ expired: number; orphans: number }> {
    const run = (this.sweeping ?? Promise.resolve()).then(() => this.sweepOnce(now));
    this.sweeping = run.catch(() => undefined);
    return run;
  }

  private async sweepOnce(now: Date): Promise<{ expired: number; orphans: number }> {
    let expired = 0;
    if (this.o.retentionDays > 0) {
      const before = new Date(now.getTime() - this.o.retentionDays * 86_400_000);
      for (;;) {
        const gone = await this.store.deleteOlderThan(before, BATCH);
        for (const r of gone) await this.blobs.delete(r.storageKey).catch(() => {});
        expired += gone.length;
        if (gone.length < BATCH) break;
      }
    }
    const cutoff = now.getTime() - (this.o.orphanGraceMs ?? ORPHAN_GRACE_MS);
    let orphans = 0;
    let batch: string[] = [];
    const flush = async () => {
      const kept = await this.store.existingKeys(batch);
      for (const key of batch)
        if (!kept.has(key)) {
          await this.blobs.delete(key).catch(() => {});
          orphans++;
        }
      batch = [];
    };
    for await (const { key, modifiedAt } of this.blobs.list('runs/')) {
      if (modifiedAt.getTime() > cutoff || !/^runs\/[A-Za-z0-9_-]+\/[A-Za-z0-9_.-]+$/.test(key)) continue;
      batch.push(key);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
    return { expired, orphans };
  }

  /** Sweeps every `intervalMs` (first after one interval); never keeps the process alive. */
  startSweeper(intervalMs: number, onError: (e: unknown) => void = () => {}): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch(onError), intervalMs);
    this.timer.unref?.();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
