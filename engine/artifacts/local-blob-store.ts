/**
 * The default blob store: files in a folder (DATA_DIR/artifacts). A write goes to a temporary file that is renamed
 * into place, so a reader never sees half a file and a crash leaves at most a temporary file (swept like an orphan).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkBlobKey } from './blob-key';
import type { BlobStore } from './types';

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly location: string;

  constructor(private readonly root: string) {
    this.location = path.resolve(root);
  }

  private file(key: string): string {
    return path.join(this.location, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.file(key)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await rm(file, { force: true });
    // An emptied run folder goes too (another writer may have just added to it: then it stays).
    await rmdir(path.dirname(file)).catch(() => {});
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const base = prefix ? this.file(prefix.replace(/\/$/, '')) : this.location;
    const walk = async function* (dir: string): AsyncGenerator<string> {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) yield* walk(full);
        else if (e.isFile()) yield full;
      }
    };
    for await (const full of walk(base)) {
      const st = await stat(full).catch(() => null);
      if (st) yield { key: path.relative(this.location, full).split(path.sep).join('/'), modifiedAt: st.mtime };
    }
  }
}
