/**
 * Main-thread work per frame from a Chrome trace (CDP `Tracing`), for the editor benchmark. A frame's work is the
 * sum of the top-level tasks (RunTask) of the page's main thread that start between one BeginMainThreadFrame and
 * the next — what the renderer had to do before it could produce that frame — not the requestAnimationFrame
 * interval, which headless Chromium paces on its own. A long task is a top-level task over 50 ms.
 *
 * `commitWaitP95` / `pageWorkP95` split that work: part of a frame's ProxyMain::BeginMainFrame is the main thread
 * waiting, with nothing of its own traced, for the compositor to take the frame (`--disable-gpu` composites and
 * rasters in software, and the main thread blocks until the commit is done); the rest — script, style, layout,
 * paint, GC, input — is the page's own work.
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
  /** p95 per frame of the time ProxyMain::BeginMainFrame spent waiting (its duration minus its traced children). */
  commitWaitP95: number;
  /** p95 per frame of the frame work without that wait: the page's own main-thread work. */
  pageWorkP95: number;
}

const CATEGORIES = [
  '-*',
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  // ProxyMain::BeginMainFrame, whose untraced remainder is the wait for the compositor's commit.
  'cc',
];
const MAIN_FRAME = 'ProxyMain::BeginMainFrame';
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
  const waits = new Array<number>(perFrame.length).fill(0);
  const onMain = events.filter((e) => e.ph === 'X' && on(e) && !TASK_NAMES.has(e.name)).sort((a, b) => a.ts - b.ts);
  for (const pm of onMain.filter((e) => e.name === MAIN_FRAME)) {
    const endPm = pm.ts + (pm.dur ?? 0);
    let covered = 0;
    let until = pm.ts;
    for (const c of onMain) {
      if (c === pm || c.ts < pm.ts || c.ts >= endPm || c.ts < until) continue;
      const cEnd = Math.min(endPm, c.ts + (c.dur ?? 0));
      covered += cEnd - c.ts;
      until = cEnd;
    }
    const i = frameOf(starts, pm.ts);
    if (i >= 0 && i < waits.length) waits[i] += Math.max(0, (pm.dur ?? 0) - covered) / 1000;
  }
  const long = tasks.filter((t) => t.dur > 50_000);
  return {
    commitWaitP95: +percentile(waits, 95).toFixed(2),
    pageWorkP95: +percentile(
      perFrame.map((ms, i) => Math.max(0, ms - waits[i])),
      95,
    ).toFixed(2),
    frames: perFrame.length,
    p50: +percentile(perFrame, 50).toFixed(2),
    p95: +percentile(perFrame, 95).toFixed(2),
    max: +Math.max(0, ...perFrame).toFixed(2),
    longTasks: long.length,
    longestTaskMs: +(Math.max(0, ...tasks.map((t) => t.dur)) / 1000).toFixed(1),
  };
}

/** The frame (index into the BeginMainThreadFrame starts) a timestamp falls in; -1 before the first. */
function frameOf(starts: number[], ts: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (!starts.length || ts < starts[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ts) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
