/**
 * Main-thread work per frame from a Chrome trace (CDP `Tracing`), for the editor benchmark. A frame's work is the
 * sum of the top-level tasks (RunTask) of the page's main thread that start between one BeginMainThreadFrame and
 * the next — what the renderer had to do before it could produce that frame — not the requestAnimationFrame
 * interval, which headless Chromium paces on its own. A long task is a top-level task over 50 ms.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface FrameWork {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  longTasks: number;
  longestTaskMs: number;
}

const CATEGORIES = [
  '-*',
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
];
const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/**
 * Traces `action` and returns the main thread's work per frame while it ran. With `profile` (a file path) it also
 * writes a V8 CPU profile of the action there (open it in DevTools' Performance panel), to see what is slow.
 */
export async function measureFrameWork(page: Page, action: () => Promise<void>, profile?: string): Promise<FrameWork> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    for (const ev of e.value) events.push(ev as unknown as TraceEvent);
  });
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  try {
    await action();
  } finally {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    if (profile) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    await cdp.detach();
  }
  return frameWorkOf(events);
}

/** The renderer main thread that worked the most (the page's; other renderers idle), its tasks bucketed by frame. */
export function frameWorkOf(events: TraceEvent[]): FrameWork {
  const mains = events
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`);
  const busy = new Map<string, number>();
  for (const e of events)
    if (e.ph === 'X' && TASK_NAMES.has(e.name) && mains.includes(`${e.pid}:${e.tid}`))
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const on = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  // Top level only: a RunTask nested in another (a nested message loop) is already counted in its parent.
  const tasks: Array<{ ts: number; dur: number }> = [];
  let end = -Infinity;
  for (const e of events.filter((x) => x.ph === 'X' && TASK_NAMES.has(x.name) && on(x)).sort((a, b) => a.ts - b.ts)) {
    if (e.ts < end) continue;
    tasks.push({ ts: e.ts, dur: e.dur ?? 0 });
    end = e.ts + (e.dur ?? 0);
  }
  const starts = events
    .filter((e) => e.name === 'BeginMainThreadFrame' && on(e))
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const perFrame = new Array<number>(Math.max(0, starts.length - 1)).fill(0);
  let f = 0;
  for (const t of tasks) {
    while (f < starts.length - 1 && t.ts >= starts[f + 1]) f++;
    if (t.ts >= starts[0] && f < perFrame.length) perFrame[f] += t.dur / 1000;
  }
  const long = tasks.filter((t) => t.dur > 50_000);
  return {
    frames: perFrame.length,
    p50: +percentile(perFrame, 50).toFixed(2),
    p95: +percentile(perFrame, 95).toFixed(2),
    max: +Math.max(0, ...perFrame).toFixed(2),
    longTasks: long.length,
    longestTaskMs: +(Math.max(0, ...tasks.map((t) => t.dur)) / 1000).toFixed(1),
  };
}
