import { expect, type Locator, type Page } from '@playwright/test';

/** What the editor exposes on `window.__paiflow` for tests (see components/editor/editor.tsx). */
export interface PaiflowWindow {
  __paiflow?: {
    editor: { state: { nodes: unknown[]; contentVersion: number; validatedVersion: number } };
    runs: { state: { seqs: number[]; status: string; lastSeq: number } };
    runController: { simulateDrop(): boolean };
    graph: () => unknown;
  };
}

export type Graph = {
  nodes: Array<{ id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> }>;
  edges: Array<Record<string, unknown>>;
};

/** The workflow editor: canvas, palette, inspector, problems / trace / runs panel. */
export class EditorPage {
  readonly canvas: Locator;
  readonly inspector: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByTestId('canvas');
    this.inspector = page.getByTestId('inspector');
  }

  async goto(workflowId: string) {
    await this.page.goto(`/workflows/${workflowId}`);
    await this.waitReady();
  }

  /**
   * The canvas is mounted, every node in view has its card (zoomed far out, none has: the overview draws them), and
   * the first validation has answered.
   */
  async waitReady() {
    await expect(this.page.getByTestId('editor')).toBeVisible();
    await this.page.waitForFunction(() => {
      const pf = (window as unknown as PaiflowWindow).__paiflow;
      if (!pf) return false;
      const s = pf.editor.state;
      const overview = document.querySelector<HTMLElement>('[data-testid="overview"]');
      return (
        s.validatedVersion === s.contentVersion &&
        overview?.dataset.settled === 'true' &&
        document.querySelectorAll('.react-flow__node').length === Number(overview.dataset.cards)
      );
    });
  }

  /** The canvas's viewport: React Flow's pan (x, y, in screen px) and zoom. */
  async viewport(): Promise<{ x: number; y: number; zoom: number }> {
    return this.page.locator('.react-flow__viewport').evaluate((el) => {
      const m = new DOMMatrix(getComputedStyle(el).transform);
      return { x: m.e, y: m.f, zoom: m.a };
    });
  }

  node(id: string): Locator {
    return this.page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`);
  }

  nodes(): Locator {
    return this.page.getByTestId('workflow-node');
  }

  edges(): Locator {
    return this.page.locator('.react-flow__edge');
  }

  /** HTML5 drag from the palette onto the canvas, dropped at `at` (pixels from the canvas' top-left corner). */
  async dragFromPalette(type: string, at: { x: number; y: number }): Promise<string> {
    const before = await this.nodeIds();
    await this.page.getByTestId(`palette-item-${type}`).dragTo(this.canvas, { targetPosition: at });
    await expect(this.nodes()).toHaveCount(before.length + 1);
    const after = await this.nodeIds();
    return after.find((id) => !before.includes(id))!;
  }

  /** A drop point (as dragFromPalette takes it) below the gap between two nodes side by side, clear of both. */
  async below(left: string, right: string): Promise<{ x: number; y: number }> {
    const [a, b, canvas] = await Promise.all([
      this.node(left).boundingBox(),
      this.node(right).boundingBox(),
      this.canvas.boundingBox(),
    ]);
    if (!a || !b || !canvas) throw new Error('nodes not visible');
    return {
      x: Math.round((a.x + b.x) / 2 - canvas.x),
      y: Math.round(Math.max(a.y + a.height, b.y + b.height) + 60 - canvas.y),
    };
  }

  /** Selects the edge from `source` to `target` with a click and deletes it with the Delete key. */
  async deleteEdge(source: string, target: string) {
    const id = await this.page.evaluate(
      ([s, t]) => {
        const pf = (window as unknown as { __paiflow?: { graph: () => { edges: Array<Record<string, string>> } } })
          .__paiflow;
        return pf?.graph().edges.find((e) => e.source === s && e.target === t)?.id ?? null;
      },
      [source, target],
    );
    if (!id) throw new Error(`no edge ${source} → ${target}`);
    const before = await this.edges().count();
    // A straight edge's box has no height, which Playwright takes for hidden: click the middle of its path instead.
    const mid = await this.page
      .getByTestId(`rf__edge-${id}`)
      .locator('.react-flow__edge-interaction')
      .evaluate((el) => {
        const path = el as SVGPathElement;
        const p = path.getPointAtLength(path.getTotalLength() / 2);
        const m = path.getScreenCTM()!;
        return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f };
      });
    await this.page.mouse.click(mid.x, mid.y);
    await this.page.keyboard.press('Delete');
    await expect(this.edges()).toHaveCount(before - 1);
  }

  async nodeIds(): Promise<string[]> {
    return this.nodes().evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')!));
  }

  sourceHandle(nodeId: string, handle = 'out'): Locator {
    return this.node(nodeId).getByTestId(`handle-out-${handle}`);
  }

  targetHandle(nodeId: string): Locator {
    return this.node(nodeId).getByTestId('handle-in');
  }

  /** Drags a connection with real mouse down / move / up, from a source handle to a target (a handle or a node). */
  async connect(source: string, target: string | Locator, opts: { handle?: string } = {}) {
    const from = await this.sourceHandle(source, opts.handle).boundingBox();
    const toLocator = typeof target === 'string' ? this.targetHandle(target) : target;
    const to = await toLocator.boundingBox();
    if (!from || !to) throw new Error('handle not visible');
    const m = this.page.mouse;
    await m.move(from.x + from.width / 2, from.y + from.height / 2);
    await m.down();
    const tx = to.x + to.width / 2;
    const ty = to.y + to.height / 2;
    await m.move((from.x + tx) / 2, (from.y + ty) / 2, { steps: 8 });
    await m.move(tx, ty, { steps: 8 });
    await m.up();
  }

  /** Clicks the node's header (not a handle) to select it and open the inspector. */
  async select(id: string) {
    await this.node(id).getByTestId('node-label').click();
    await expect(this.page.getByTestId('inspector-node-id')).toHaveText(id);
  }

  field(name: string): Locator {
    return this.inspector.getByTestId(`field-${name}`);
  }

  async save() {
    await this.page.keyboard.press('Control+s');
    await expect(this.page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  }

  async waitSaved() {
    await expect(this.page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 15_000 });
  }

  async waitValidated() {
    await this.page.waitForFunction(() => {
      const s = (window as unknown as PaiflowWindow).__paiflow?.editor.state;
      return !!s && s.validatedVersion === s.contentVersion;
    });
  }

  /** The editor's in-memory graph, as it would be saved. */
  async graph(): Promise<Graph> {
    return this.page.evaluate(() => (window as unknown as PaiflowWindow).__paiflow!.graph()) as Promise<Graph>;
  }

  toasts(): Locator {
    return this.page.getByTestId('toast');
  }

  problemCount(): Locator {
    return this.page.getByTestId('problem-count');
  }

  async openTab(tab: 'problems' | 'trace' | 'runs') {
    await this.page.getByTestId(`tab-${tab}`).click();
  }

  /**
   * Starts a run and returns its id: through the run form, filled with `inputs`, when the start node declares inputs;
   * at once, without a form, when it declares none.
   */
  async run(inputs: Record<string, string> = {}): Promise<string> {
    const panel = this.page.getByTestId('trace-panel');
    const before = (await panel.count()) ? await panel.getAttribute('data-run-id') : null;
    await this.page.getByTestId('run').click();
    const dialog = this.page.getByTestId('run-dialog');
    const started = async () => ((await panel.count()) ? await panel.getAttribute('data-run-id') : null);
    await expect.poll(async () => (await dialog.isVisible()) || ((await started()) ?? before) !== before).toBe(true);
    if (await dialog.isVisible()) {
      for (const [k, v] of Object.entries(inputs)) await dialog.getByTestId(`run-input-${k}`).fill(v);
      await dialog.getByTestId('run-submit').click();
      await expect(dialog).toBeHidden();
    } else expect(Object.keys(inputs), 'inputs given to a workflow that declares none').toEqual([]);
    await expect(panel).toBeVisible();
    await expect.poll(started).not.toBe(before);
    return (await started())!;
  }

  async expectRunStatus(status: string, timeout = 30_000) {
    await expect(this.page.getByTestId('trace-panel')).toHaveAttribute('data-run-status', status, { timeout });
  }

  traceRows(nodeId?: string): Locator {
    const rows = this.page.getByTestId('trace-row');
    return nodeId ? rows.and(this.page.locator(`[data-node-id="${nodeId}"]`)) : rows;
  }
}
