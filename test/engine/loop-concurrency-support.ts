/**
 * For the loop-concurrency tests: a counting HTTP server that holds each request until the test releases it (so a
 * test sees how many items' bodies are in flight at once by counting requests, not by timing), and the loop graph
 * whose body calls it once per item: start → loop (list) → fetch (POST /item/<index>) → back to the loop; done → end.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Graph } from '@/engine/graph/schema';

export interface GateServer {
  base: string;
  host: string;
  /** Hold requests until released (true) or answer them at once (false). */
  hold: boolean;
  /** Items answered with a 500 (at once, held or not). */
  failItems: Set<number>;
  /** Delay before answering a request that is not held (the bench's "work"). */
  delayMs: number;
  /** Items whose requests are held now, in arrival order. */
  readonly held: number[];
  /** Requests received per item. */
  readonly arrivals: Map<number, number>;
  /** The Idempotency-Key of each request per item, in arrival order. */
  readonly keys: Map<number, string[]>;
  /** Requests answered with 200 per item (an item's body that finished). */
  readonly completed: Map<number, number>;
  /** Answered with 200, in order. */
  readonly completionOrder: number[];
  readonly inFlight: number;
  /** The most requests in flight at once, ever. */
  readonly maxInFlight: number;
  /** Answers the held request of `item` with 200. */
  release(item: number): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startGateServer(): Promise<GateServer> {
  const waiting = new Map<number, ServerResponse>();
  const held: number[] = [];
  const arrivals = new Map<number, number>();
  const keys = new Map<number, string[]>();
  const completed = new Map<number, number>();
  const completionOrder: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  /** Request → marks it out of flight (once): when answered, or when the client aborted it (a cancelled run). */
  const out = new WeakMap<ServerResponse, () => void>();
  const answer = (item: number, res: ServerResponse, status: number) => {
    if (res.writableEnded || res.destroyed) return;
    out.get(res)?.();
    if (status === 200) {
      completed.set(item, (completed.get(item) ?? 0) + 1);
      completionOrder.push(item);
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { text: `item-${item}` } : { error: `item ${item} failed` }));
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const item = Number(/\/item\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
    arrivals.set(item, (arrivals.get(item) ?? 0) + 1);
    keys.set(item, [...(keys.get(item) ?? []), String(req.headers['idempotency-key'])]);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let open = true;
    const done = () => {
      if (!open) return;
      open = false;
      inFlight--;
      waiting.delete(item);
      const at = held.indexOf(item);
      if (at >= 0) held.splice(at, 1);
    };
    out.set(res, done);
    res.on('close', done);
    if (gate.failItems.has(item)) return answer(item, res, 500);
    if (!gate.hold) {
      if (gate.delayMs > 0) setTimeout(() => answer(item, res, 200), gate.delayMs);
      else answer(item, res, 200);
      return;
    }
    waiting.set(item, res);
    held.push(item);
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gate: GateServer = {
    base: `http://${host}`,
    host,
    hold: true,
    failItems: new Set(),
    delayMs: 0,
    held,
    arrivals,
    keys,
    completed,
    completionOrder,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    release(item) {
      const res = waiting.get(item);
      if (!res) throw new Error(`no request of item ${item} is held`);
      answer(item, res, 200);
    },
    reset() {
      gate.hold = true;
      gate.failItems.clear();
      gate.delayMs = 0;
      arrivals.clear();
      keys.clear();
      completed.clear();
      completionOrder.length = 0;
      maxInFlight = inFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return gate;
}

/** start → loop over inputs.items → fetch POST <base>/item/<index> → back to the loop; done → end (results). */
export function fetchLoopGraph(base: string, loop: Record<string, unknown> = {}): Graph {
  const node = (id: string, type: string, config: Record<string, unknown>, x: number) => ({
    id,
    type,
    position: { x, y: 0 },
    data: { config },
  });
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'items', type: 'array' }] }, 0),
      node(
        'loop',
        'loop',
        {
          mode: 'list',
          items: '{{inputs.items}}',
          collect: '{{fetch.output.body.text}}',
          maxIterations: 100,
          ...loop,
        },
        200,
      ),
      node(
        'fetch',
        'http',
        {
          method: 'POST',
          url: `${base}/item/{{loop.output.index}}`,
          bodyType: 'json',
          body: '{"item": "{{loop.output.item}}"}',
          timeoutMs: 30_000,
        },
        400,
      ),
      node('end', 'end', { outputs: [{ name: 'results', value: '{{loop.output.results}}' }] }, 600),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'loop' },
      { id: 'e2', source: 'loop', target: 'fetch', sourceHandle: 'body' },
      { id: 'e3', source: 'fetch', target: 'loop' },
      { id: 'e4', source: 'loop', target: 'end', sourceHandle: 'done' },
    ],
  } as Graph;
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);
export const expectedResults = (n: number) => range(n).map((i) => `item-${i}`);
