/**
 * Editor responsiveness with a 500-node graph: time to first render (navigation start → all 500 nodes measured
 * and painted) and frame times while a node is dragged (requestAnimationFrame deltas; p50 / p95 / max).
 * Runs under Playwright (see bench/playwright.bench.config.ts); prints a table and writes bench/results/editor.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const NODES = Number(process.env.BENCH_NODES ?? 500);
const DRAG_STEPS = 180;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** start → 498 templates in a grid, each fed by the node before it (plus a second edge every 7th node) → end. */
function bigGraph(n: number) {
  const cols = 25;
  const nodes: Array<Record<string, unknown>> = [];
  const edges: Array<Record<string, unknown>> = [];
  const pos = (i: number) => ({ x: (i % cols) * 300, y: Math.floor(i / cols) * 160 });
  nodes.push({
    id: 'start',
    type: 'start',
    position: pos(0),
    data: { label: 'Start', config: { inputs: [{ name: 'q', type: 'string', required: true }] } },
  });
  for (let i = 1; i < n - 1; i++) {
    const prev = i === 1 ? 'start' : `t${i - 1}`;
    nodes.push({
      id: `t${i}`,
      type: 'template',
      position: pos(i),
      data: {
        label: `Step ${i}`,
        config: { template: i === 1 ? '{{inputs.q}}' : `{{${prev}.output.text}}+`, format: 'text' },
      },
    });
    edges.push({ id: `e${i}`, source: prev, target: `t${i}` });
    if (i > 7 && i % 7 === 0) edges.push({ id: `x${i}`, source: `t${i - 7}`, target: `t${i}` });
  }
  nodes.push({
    id: 'end',
    type: 'end',
    position: pos(n - 1),
    data: { label: 'End', config: { outputs: [{ name: 'out', value: `{{t${n - 2}.output.text}}` }] } },
  });
  edges.push({ id: 'eend', source: `t${n - 2}`, target: 'end' });
  return { nodes, edges };
}

function pct(values: number[], p: number) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

test(`editor with ${NODES} nodes: first render and drag frame times`, async ({ page, request }, testInfo) => {
  const res = await request.post('/api/workflows?draft=1', {
    data: { name: `Bench ${NODES} nodes`, graph: bigGraph(NODES) },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();

  // Records when every node is in the DOM and measured (React Flow keeps unmeasured nodes visibility:hidden).
  await page.addInitScript((expected: number) => {
    const w = window as unknown as { __benchRendered?: number };
    const check = () => {
      const els = document.querySelectorAll('.react-flow__node');
      if (els.length >= expected && [...els].every((e) => (e as HTMLElement).style.visibility !== 'hidden')) {
        w.__benchRendered = performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, NODES);

  const renders: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    await page.goto(`/workflows/${id}`);
    await page.waitForFunction(
      () => (window as unknown as { __benchRendered?: number }).__benchRendered !== undefined,
      undefined,
      { timeout: 120_000 },
    );
    renders.push(await page.evaluate(() => (window as unknown as { __benchRendered: number }).__benchRendered));
  }
  await expect(page.locator('.react-flow__node')).toHaveCount(NODES);

  // Zoom to a working scale around one node in the middle, as a person dragging it would.
  await page.evaluate(() => {
    const pf = (window as unknown as { __paiflow: { editor: { selectNode(id: string | null): void } } }).__paiflow;
    pf.editor.selectNode('t262');
    pf.editor.selectNode(null);
  });
  await page.waitForTimeout(600);
  const box = await page
    .locator('[data-testid="workflow-node"][data-node-id="t262"] [data-testid="node-label"]')
    .boundingBox();
  if (!box) throw new Error('node t262 not visible');

  const drags: Array<{ p50: number; p95: number; max: number; frames: number }> = [];
  for (let r = 0; r < RUNS; r++) {
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__frames = [];
      w.__recording = true;
      let last = performance.now();
      const tick = (t: number) => {
        if (!w.__recording) return;
        w.__frames.push(t - last);
        last = t;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame((t) => {
        last = t;
        requestAnimationFrame(tick);
      });
    });
    const x0 = box.x + box.width / 2;
    const y0 = box.y + box.height / 2;
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    for (let i = 1; i <= DRAG_STEPS; i++) {
      const a = (i / DRAG_STEPS) * Math.PI * 2;
      await page.mouse.move(x0 + Math.sin(a) * 160, y0 + (1 - Math.cos(a)) * 60);
    }
    await page.mouse.up();
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__recording = false;
      return w.__frames.slice(1);
    });
    drags.push({ p50: pct(frames, 50), p95: pct(frames, 95), max: Math.max(...frames), frames: frames.length });
  }

  const result = {
    nodes: NODES,
    edges: bigGraph(NODES).edges.length,
    runs: RUNS,
    firstRenderMs: { median: pct(renders, 50), all: renders.map(Math.round) },
    dragFrameMs: {
      p50: +pct(
        drags.map((d) => d.p50),
        50,
      ).toFixed(1),
      p95: +pct(
        drags.map((d) => d.p95),
        50,
      ).toFixed(1),
      max: +Math.max(...drags.map((d) => d.max)).toFixed(1),
      framesPerDrag: drags.map((d) => d.frames),
    },
    environment: {
      browser: 'Debian Chromium (headless, --disable-gpu)',
      build: process.env.E2E_DEV === '1' ? 'next dev' : 'next build (production)',
    },
  };
  console.log('\n== Editor benchmark ==');
  console.table({
    'first render (ms, median)': Math.round(result.firstRenderMs.median),
    'drag frame p50 (ms)': result.dragFrameMs.p50,
    'drag frame p95 (ms)': result.dragFrameMs.p95,
    'drag frame max (ms)': result.dragFrameMs.max,
  });
  const out = path.join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'editor.json'), JSON.stringify(result, null, 2));
  await testInfo.attach('editor-bench.json', {
    body: JSON.stringify(result, null, 2),
    contentType: 'application/json',
  });
  await page.screenshot({ path: testInfo.outputPath('editor-500-nodes.png') });
});
