/**
 * Editor responsiveness with a 500-node graph: time to first render (navigation start → all 500 nodes painted,
 * as measured cards or, where a node has no card, by the overview canvas); the main thread's work per frame
 * (p50 / p95 / max) and its long tasks (> 50 ms) while a node is dragged, the canvas panned and zoomed, a live run
 * streams its trace with the whole graph in view, and one node in view streams tokens (from a Chrome trace: see
 * support/frame-work.ts); and how many node cards those events re-render (support/render-counter.ts).
 * Runs under Playwright (see bench/playwright.bench.config.ts); prints a table and writes bench/results/editor.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { bigGraph } from './support/big-graph';
import { measureFrameWork, percentile, type FrameWork } from './support/frame-work';
import { installRenderCounter, type RenderCounts } from './support/render-counter';

const NODES = Number(process.env.BENCH_NODES ?? 500);
const STEPS = 120;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

type Win = {
  __benchRendered?: number;
  __renderCounts: RenderCounts;
  __paiflow: {
    editor: { selectNode(id: string | null): void };
    runs: { state: { status: string }; reset(id: string | null): void };
    runController: { open(id: string): void };
  };
};

/** The median of each figure over the runs, the worst max and every long task. */
function combine(runs: FrameWork[]): FrameWork {
  const median = (figure: keyof FrameWork) =>
    percentile(
      runs.map((r) => r[figure]),
      50,
    );
  return {
    frames: runs.reduce((a, r) => a + r.frames, 0),
    p50: median('p50'),
    p95: median('p95'),
    max: Math.max(...runs.map((r) => r.max)),
    longTasks: runs.reduce((a, r) => a + r.longTasks, 0),
    longestTaskMs: Math.max(...runs.map((r) => r.longestTaskMs)),
    commitWaitP95: median('commitWaitP95'),
    pageWorkP95: median('pageWorkP95'),
  };
}

/** BENCH_PROFILE=dir writes a CPU profile of each measured action there (`<name>.cpuprofile`). */
const profileOf = (name: string) =>
  process.env.BENCH_PROFILE ? path.join(process.env.BENCH_PROFILE, `${name}.cpuprofile`) : undefined;

async function repeat(page: Page, name: string, action: () => Promise<void>): Promise<FrameWork> {
  const runs: FrameWork[] = [];
  for (let r = 0; r < RUNS; r++) {
    runs.push(await measureFrameWork(page, action, r === 0 ? profileOf(name) : undefined));
    await page.waitForTimeout(300);
  }
  return combine(runs);
}

/** A point of the empty pane near the canvas centre (between node cards), for panning. */
async function panePoint(page: Page) {
  const p = await page.evaluate(() => {
    const r = document.querySelector('.react-flow')!.getBoundingClientRect();
    for (let dy = 0; dy < r.height / 3; dy += 7)
      for (let dx = 0; dx < r.width / 3; dx += 7) {
        const x = r.left + r.width / 2 + dx;
        const y = r.top + r.height / 2 + dy;
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y };
      }
    return null;
  });
  if (!p) throw new Error('no empty pane point to pan from');
  return p;
}

async function openEditor(page: Page, id: string) {
  await page.goto(`/workflows/${id}`);
  await page.waitForFunction(() => (window as unknown as Win).__benchRendered !== undefined, undefined, {
    timeout: 120_000,
  });
}

test(`editor with ${NODES} nodes: first render, frame work while editing and live runs`, async ({
  page,
  request,
}, testInfo) => {
  const graph = bigGraph(NODES);
  const res = await request.post('/api/workflows?draft=1', { data: { name: `Bench ${NODES} nodes`, graph } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();

  await page.addInitScript(installRenderCounter);
  // Records when every node is painted: as a measured card (React Flow keeps unmeasured nodes visibility:hidden)
  // or, where it has no card (out of view, or zoomed out past 0.3), drawn by the overview canvas.
  await page.addInitScript((expected: number) => {
    const w = window as unknown as { __benchRendered?: number };
    const check = () => {
      const overview = document.querySelector<HTMLElement>('[data-testid="overview"]');
      const cards = [...document.querySelectorAll<HTMLElement>('.react-flow__node')];
      const painted = cards.filter((e) => e.style.visibility !== 'hidden').length + Number(overview?.dataset.drawn);
      if (overview?.dataset.settled === 'true' && painted >= expected) {
        w.__benchRendered = performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, NODES);

  const renders: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const profile = r === RUNS - 1 ? profileOf('first-render') : undefined;
    if (profile) await measureFrameWork(page, () => openEditor(page, id), profile);
    else await openEditor(page, id);
    renders.push(await page.evaluate(() => (window as unknown as Win).__benchRendered!));
  }
  await expect(page.getByTestId('overview')).toHaveAttribute('data-drawn', String(NODES));

  // Zoom to a working scale around one node in the middle, as a person dragging it would.
  await page.evaluate(() => {
    const pf = (window as unknown as Win).__paiflow;
    pf.editor.selectNode('t262');
    pf.editor.selectNode(null);
  });
  await page.waitForTimeout(600);
  const box = await page
    .locator('[data-testid="workflow-node"][data-node-id="t262"] [data-testid="node-label"]')
    .boundingBox();
  if (!box) throw new Error('node t262 not visible');

  const x0 = box.x + box.width / 2;
  const y0 = box.y + box.height / 2;
  const drag = await repeat(page, 'drag', async () => {
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    for (let i = 1; i <= STEPS; i++) {
      const a = (i / STEPS) * Math.PI * 2;
      await page.mouse.move(x0 + Math.sin(a) * 160, y0 + (1 - Math.cos(a)) * 60);
    }
    await page.mouse.up();
  });

  const p = await panePoint(page);
  const pan = await repeat(page, 'pan', async () => {
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    for (let i = 1; i <= STEPS; i++) {
      const a = (i / STEPS) * Math.PI * 2;
      await page.mouse.move(p.x + Math.sin(a) * 300, p.y + (1 - Math.cos(a)) * 150);
    }
    await page.mouse.up();
  });

  const zoom = await repeat(page, 'zoom', async () => {
    await page.mouse.move(p.x, p.y);
    for (let i = 0; i < STEPS; i++) await page.mouse.wheel(0, i < STEPS / 2 ? -40 : 40);
  });

  // A live run of the whole graph, streamed into the open editor and watched with all of it in view (fitted: zoomed
  // out past 0.3, where no card is mounted and the overview draws every node's status); then how many cards each
  // event re-rendered.
  await page.getByTestId('fit-view').click();
  await expect(page.getByTestId('overview')).toHaveAttribute('data-drawn', String(NODES));
  const liveView = await page.evaluate(() => ({
    zoom: +new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a.toFixed(3),
    cards: document.querySelectorAll('.react-flow__node').length,
    drawnByOverview: Number(document.querySelector<HTMLElement>('[data-testid="overview"]')!.dataset.drawn),
  }));
  await page.evaluate(async () => {
    (window as unknown as Win).__paiflow.runs.reset(null);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    (window as unknown as Win).__renderCounts.byNode = {};
  });
  const runRes = await request.post(`/api/workflows/${id}/runs`, { data: { inputs: { q: 'x' } } });
  expect(runRes.status(), await runRes.text()).toBe(202);
  const { runId } = (await runRes.json()) as { runId: string };
  const live = await measureFrameWork(
    page,
    async () => {
      await page.evaluate((rid) => (window as unknown as Win).__paiflow.runController.open(rid), runId);
      await page.waitForFunction(
        () => ['succeeded', 'failed', 'cancelled'].includes((window as unknown as Win).__paiflow.runs.state.status),
        undefined,
        { timeout: 120_000 },
      );
      await page.waitForTimeout(300);
    },
    profileOf('live-run'),
  );
  const runStatus = await page.evaluate(() => (window as unknown as Win).__paiflow.runs.state.status);
  const counts = await page.evaluate(() => (window as unknown as Win).__renderCounts.byNode);
  const perNode = Object.values(counts);
  const cardRenders = perNode.reduce((a, b) => a + b, 0);

  // Then one node streams: it re-runs and 60 token events arrive, one an animation frame, through the same
  // RunStore.push a live event stream uses, while the view is on it (zoomed in to t262, as one watches a node).
  // Only its card may re-render.
  await page.evaluate(() => {
    const pf = (window as unknown as Win).__paiflow;
    pf.editor.selectNode('t262');
    pf.editor.selectNode(null);
  });
  await expect(page.locator('[data-testid="workflow-node"][data-node-id="t262"]')).toBeVisible();
  await expect(page.getByTestId('overview')).toHaveAttribute('data-settled', 'true');
  await page.waitForTimeout(600);
  await page.evaluate(() => ((window as unknown as Win).__renderCounts.byNode = {}));
  const streaming = await measureFrameWork(
    page,
    () =>
      page.evaluate(async (node) => {
        const runs = (window as unknown as Win).__paiflow.runs as unknown as {
          state: { runId: string };
          lastSeq: number;
          push(e: Record<string, unknown>): void;
        };
        const event = (type: string, data: Record<string, unknown>) => ({
          seq: runs.lastSeq + 1,
          runId: runs.state.runId,
          ts: new Date().toISOString(),
          type,
          nodeId: node,
          spanId: `bench-${node}`,
          data,
        });
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        runs.push(event('node.started', { type: 'template', attempt: 2 }));
        for (let i = 0; i < 60; i++) {
          await frame();
          runs.push(event('node.token', { delta: `token ${i} ` }));
        }
        await frame();
        runs.push(event('node.succeeded', { output: { text: 'done' }, durationMs: 1000, attempt: 2 }));
        await frame();
        await frame();
      }, 't262'),
    profileOf('one-node-streaming'),
  );
  const streamCounts = await page.evaluate(() => (window as unknown as Win).__renderCounts.byNode);

  const result = {
    nodes: NODES,
    edges: graph.edges.length,
    runs: RUNS,
    firstRenderMs: { median: Math.round(percentile(renders, 50)), all: renders.map(Math.round) },
    frameWorkMs: { drag, pan, zoom, liveRun: live, oneNodeStreaming: streaming },
    liveRun: {
      view: liveView,
      status: runStatus,
      cardRenders,
      cardsRendered: perNode.length,
      maxRendersOfOneCard: Math.max(0, ...perNode),
      rendersPerCard: +(cardRenders / NODES).toFixed(2),
    },
    /** Cards re-rendered while one node (t262) streamed 62 events: only t262 should appear. */
    oneNodeStreaming: streamCounts,
    environment: {
      browser: 'Debian Chromium (headless, --disable-gpu)',
      build: process.env.E2E_DEV === '1' ? 'next dev' : 'next build (production)',
    },
  };
  console.log('\n== Editor benchmark ==');
  console.log(`first render: ${result.firstRenderMs.median} ms (median of ${result.firstRenderMs.all.join(', ')})`);
  console.table(
    Object.fromEntries(
      Object.entries(result.frameWorkMs).map(([k, v]) => [
        k,
        {
          'p50 ms': v.p50,
          'p95 ms': v.p95,
          'max ms': v.max,
          frames: v.frames,
          'long tasks': v.longTasks,
          'commit wait p95': v.commitWaitP95,
          'page work p95': v.pageWorkP95,
        },
      ]),
    ),
  );
  console.log('live run card renders:', JSON.stringify(result.liveRun));
  console.log('card renders while t262 streams 62 events:', JSON.stringify(streamCounts));
  const out = path.join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'editor.json'), JSON.stringify(result, null, 2));
  await testInfo.attach('editor-bench.json', {
    body: JSON.stringify(result, null, 2),
    contentType: 'application/json',
  });
  await page.screenshot({ path: testInfo.outputPath('editor-500-nodes.png') });

  expect(runStatus).toBe('succeeded');
  expect(Object.keys(streamCounts)).toEqual(['t262']);
});
