/**
 * A test's child process: `npx tsx <script> …args` in its own process group, with its stdout collected by line.
 * `line(prefix)` waits for the first line `<prefix> <value>` and returns the value (failing early when the child
 * exits first, with its stderr); `stop()` ends everything it started the way a supervisor would (SIGTERM, then
 * SIGKILL), `killGroup()` is the best-effort cleanup at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { until } from './until';

export function spawnTsx(script: string, args: string[], env: Record<string, string>) {
  const lines: string[] = [];
  let stderr = '';
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const child: ChildProcess = spawn('npx', ['tsx', script, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so npx/tsx wrappers can be cleaned up by group id
  });
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts.map((l) => l.trim()).filter(Boolean));
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  const line = (prefix: string) =>
    until(
      () => {
        if (exited && !lines.some((l) => l.startsWith(prefix)))
          throw new Error(
            `child ${script} exited (${JSON.stringify(exited)}) before printing ${prefix}; stderr:\n${stderr}`,
          );
        return lines.find((l) => l.startsWith(`${prefix} `))?.slice(prefix.length + 1);
      },
      `child line ${prefix}`,
      90_000,
    );
  return {
    child,
    lines,
    exit,
    line,
    get stderr() {
      return stderr;
    },
    /**
     * SIGTERM to the whole process group (npx, tsx and the script), so the script can shut down cleanly; SIGKILL
     * if any of it is still there after `graceMs`.
     */
    async stop(graceMs = 10_000) {
      const pid = child.pid;
      if (!pid) return;
      const alive = () => {
        try {
          process.kill(-pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        return;
      }
      const stopped = await until(() => !alive(), `${script} to stop`, graceMs, 100).then(
        () => true,
        () => false,
      );
      if (!stopped)
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone meanwhile */
        }
    },
    /** Best-effort cleanup of the whole process group we created. */
    killGroup() {
      if (child.pid && !exited)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    },
  };
}
