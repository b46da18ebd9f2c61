/**
 * Helpers for tests of the published (v1) endpoints: the Bearer header of an API key, reading an SSE answer to its
 * end, and the check that a trace is contiguous from seq 1 to its terminal event.
 */
import { expect } from 'vitest';

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export interface SseFrame {
  id: number;
  event: string;
  data: any;
}

/** Reads an SSE Response to its end (bounded), parsing `id:`/`event:`/`data:` frames. */
export async function readSse(res: Response, timeoutMs = 20_000): Promise<{ frames: SseFrame[]; closed: boolean }> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let raw = '';
  let closed = false;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((ok) => {
        timer = setTimeout(() => ok('timeout'), deadline - Date.now());
      }),
    ]);
    clearTimeout(timer);
    if (r === 'timeout') break;
    if (r.done) {
      closed = true;
      break;
    }
    raw += dec.decode(r.value, { stream: true });
  }
  if (!closed) await reader.cancel().catch(() => {});
  const frames = raw
    .split('\n\n')
    .map((block) => block.split('\n'))
    .flatMap((lines) => {
      const get = (k: string) =>
        lines
          .find((l) => l.startsWith(`${k}:`))
          ?.slice(k.length + 1)
          .trim();
      const id = get('id');
      return id
        ? [
            {
              id: Number(id),
              event: get('event')!,
              data: JSON.parse(
                lines
                  .filter((l) => l.startsWith('data:'))
                  .map((l) => l.slice(5))
                  .join('\n'),
              ),
            },
          ]
        : [];
    });
  return { frames, closed };
}

export function expectContiguousToTerminal(frames: SseFrame[], runId: string) {
  expect(frames.length).toBeGreaterThan(2);
  expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
  for (const f of frames) expect(f.data).toMatchObject({ seq: f.id, runId, type: f.event });
  expect(frames[0].event).toBe('run.started');
  expect(['run.succeeded', 'run.failed', 'run.cancelled', 'run.interrupted']).toContain(frames.at(-1)!.event);
}
