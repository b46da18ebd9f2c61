/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). Used by lock files. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
