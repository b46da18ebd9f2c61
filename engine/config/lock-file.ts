/**
 * Pid lock files: which process owns a directory (the embedded database's DATA_DIR, the embedded knowledge index).
 * One process at a time may hold one; the same process may take it again, and a lock whose process is gone is taken
 * over.
 *
 * Taking a lock is atomic, so a reader never sees a half-written file (an empty file would read as "free") and two
 * processes starting at once cannot both create it: the pid is written to a temporary file in the same directory,
 * which is then hard-linked to the lock's name (fails if the name exists) or, to take over a stale lock, renamed over
 * it and read back (the last of two racing take-overs wins; the other sees a live owner and fails). Where the file
 * system has no hard links, an exclusive create (`wx`) takes the place of the link.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in the lock file, or null when there is none (missing, empty or unreadable file). */
function holder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Creates `file` holding `content` if it does not exist; false if it does. */
function createExclusive(file: string, tmp: string, content: string): boolean {
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw e;
  }
  try {
    writeFileSync(file, content, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Takes the lock `file` for this process, or throws `heldBy(pid)` when another live process holds it. Returns the
 * release function, which removes the file if this process still holds it.
 */
export function takeLockFile(file: string, heldBy: (pid: number) => Error): () => void {
  const me = String(process.pid);
  const tmp = `${file}.${me}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, me);
  try {
    for (let attempt = 0; ; attempt++) {
      if (createExclusive(file, tmp, me)) break;
      const pid = holder(file);
      if (pid === process.pid) break;
      if (pid !== null && pidAlive(pid)) throw heldBy(pid);
      if (attempt >= 3) throw heldBy(pid ?? 0); // it keeps changing hands: someone else is taking it right now
      renameSync(tmp, file); // a stale lock (its process is gone): replace it in one step
      writeFileSync(tmp, me);
      if (holder(file) === process.pid) break;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  return () => {
    if (holder(file) === process.pid) rmSync(file, { force: true });
  };
}
