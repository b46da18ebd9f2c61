/**
 * EventBus on Redis Streams, for several app/worker processes. One stream per run (`<prefix>run:<runId>`), with the
 * event's `seq` as the entry id (`<seq>-0`), so "replay after Last-Event-ID" is just XREAD from `<seq>-0` and a
 * duplicate publish is rejected by Redis instead of delivered twice. One blocking reader connection per process
 * multiplexes every subscribed run (XREAD BLOCK over all their streams); a new subscription wakes it with
 * CLIENT UNBLOCK. Streams expire a while after the run's execution ends (the store keeps the history).
 */
import Redis from 'ioredis';
import type { BusStatus, EventBus, TraceEvent, Unsubscribe } from './types';

interface Sub {
  runId: string;
  last: number;
  fn: (e: TraceEvent) => void;
}

export class RedisEventBus implements EventBus {
  readonly kind = 'redis-streams';
  private readonly pub: Redis;
  private readonly reader: Redis;
  private readerId?: number;
  private subs = new Set<Sub>();
  private loop?: Promise<void>;
  private idleWake?: () => void;
  private closed = false;

  constructor(
    url: string,
    private readonly opts: { prefix?: string; ttlSeconds?: number; maxLen?: number } = {},
  ) {
    this.pub = new Redis(url, {
      maxRetriesPerRequest: 3,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    this.reader = new Redis(url, { maxRetriesPerRequest: null });
    this.pub.on('error', () => {});
    this.reader.on('error', () => {});
  }

  status(): BusStatus {
    const up = this.pub.status === 'ready' && this.reader.status === 'ready';
    return up ? { ok: true } : { ok: false, reason: `redis connection ${this.pub.status}` };
  }

  private key(runId: string) {
    return `${this.opts.prefix ?? 'paiflow:'}run:${runId}`;
  }

  publish(e: TraceEvent): void {
    // Commands on one connection are executed in order, so stream order = seq order. A failed XADD (Redis down,
    // or an id not above the last) loses only the live copy: SSE readers fill gaps from the store.
    this.pub
      .xadd(this.key(e.runId), 'MAXLEN', '~', String(this.opts.maxLen ?? 100_000), `${e.seq}-0`, 'e', JSON.stringify(e))
      .catch(() => {});
  }

  subscribe(runId: string, afterSeq: number, onEvent: (e: TraceEvent) => void): Unsubscribe {
    const sub: Sub = { runId, last: afterSeq, fn: onEvent };
    this.subs.add(sub);
    this.ensureLoop();
    this.idleWake?.();
    this.wake();
    return () => {
      this.subs.delete(sub);
    };
  }

  release(runId: string): void {
    this.pub.expire(this.key(runId), this.opts.ttlSeconds ?? 3600).catch(() => {});
  }

  private wake() {
    if (this.readerId !== undefined) this.pub.call('CLIENT', 'UNBLOCK', String(this.readerId)).catch(() => {});
  }

  private ensureLoop() {
    if (this.loop) return;
    this.loop = (async () => {
      this.readerId = Number(await this.reader.call('CLIENT', 'ID').catch(() => undefined));
      while (!this.closed) {
        if (!this.subs.size) {
          // Idle: sleep until a subscription arrives (subscribe() wakes us), with a slow timer as a backstop.
          await new Promise<void>((r) => {
            this.idleWake = r;
            setTimeout(r, 1000).unref?.();
          });
          this.idleWake = undefined;
          continue;
        }
        // The lowest cursor per run: subscribers that are further along drop what they have already seen.
        const cursors = new Map<string, number>();
        for (const s of this.subs) cursors.set(s.runId, Math.min(cursors.get(s.runId) ?? Infinity, s.last));
        const runIds = [...cursors.keys()];
        type XReadReply = Array<[string, Array<[string, string[]]>]> | null;
        let res: XReadReply;
        try {
          res = (await this.reader.xread(
            'COUNT',
            1000,
            'BLOCK',
            5000,
            'STREAMS',
            ...runIds.map((r) => this.key(r)),
            ...runIds.map((r) => `${cursors.get(r)}-0`),
          )) as XReadReply;
        } catch {
          if (this.closed) break;
          await new Promise((r) => setTimeout(r, 200)); // unblocked or reconnecting: re-read with fresh cursors
          continue;
        }
        if (!res) continue;
        for (const [, entries] of res) {
          for (const [, fields] of entries) {
            const e = JSON.parse(fields[1]) as TraceEvent;
            for (const s of this.subs) {
              if (s.runId !== e.runId || e.seq <= s.last) continue;
              s.last = e.seq;
              try {
                s.fn(e);
              } catch {
                /* a broken subscriber must not stop the others */
              }
            }
          }
        }
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idleWake?.();
    this.wake();
    this.reader.disconnect();
    await this.loop?.catch(() => {});
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}
