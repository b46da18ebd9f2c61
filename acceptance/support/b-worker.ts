/**
 * One queue-mode worker process started the way the README says (`npm run worker`, with the app's environment), in
 * a process group of its own so that `kill('SIGKILL')` ends npm, tsx and the worker together, as a crash or an OOM
 * kill of that machine would. For journeys that kill a worker while the app keeps running (support/server.ts starts
 * and kills the app and its worker together).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './server';

export interface WorkerProcess {
  log(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorker(env: Record<string, string>, name: string, timeoutMs = 120_000) {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(merged)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete merged[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  const child: ChildProcess = spawn('npm', ['run', 'worker'], {
    cwd: ROOT,
    env: merged,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (b: Buffer) => (output = (output + b.toString().replace(/^(?=.)/gm, `[${name}] `)).slice(-100_000));
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const exited = () => (gone() ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r())));
  const worker: WorkerProcess = {
    log: () => output,
    async kill(signal = 'SIGTERM') {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
      await exited();
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!/taking runs/.test(output)) {
    if (gone()) throw new Error(`worker ${name} exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    if (Date.now() > deadline) {
      await worker.kill('SIGKILL');
      throw new Error(`worker ${name} did not start within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return worker;
}
