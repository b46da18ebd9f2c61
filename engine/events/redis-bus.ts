/**
 * EventBus on Redis Streams, for several app/worker processes. One stream per run (`<prefix>run:<runId>`), with the
 * event's `seq` as the entry id (`<seq>-0`), so "replay after Last-Event-ID" is just XREAD from `<seq>-0` and a
 * duplicate publish is rejected by Redis instead of delivered twice. One blocking reader connection per process
 * multiplexes every subscribed run (XREAD BLOCK over all their streams); a new subscription wakes it with
 * CLIENT UNBLOCK.
 *
 * Retention: every publish (re)sets the stream's TTL to `ttlSeconds` (EVENTS_RETENTION_S), so a stream is gone that
 * long after its last event — also when the process that ran it died before release(). A terminal event and
 * release() shorten it to at most ENDED_TTL_S: a run that has ended (or paused) gets no more live events until it is
 * resumed, which publishes again, and a late viewer replays from the store. At a few hundred runs a second that is
 * the difference between ~10,000 and ~100,000 streams kept. Streams are capped at `maxLen` entries. The store keeps
 * the history; the stream only carries live fan-out.
 *
 * Outages: both connections reconnect on their own. A blocked XREAD is abandoned when the reader's connection drops
 * and a fresh one is issued once it is back (resubscribing every run from its subscribers' cursors). Events published
 * while Redis was away (or lost with a restarted Redis) cannot be read back from Redis, so once both connections are
 * ready again every subscriber's `onResync` is called to re-read the store from its last delivered seq.
 */
import Redis from 'ioredis';
import {
  TERMINAL_EVENT_TYPES,
  type BusStatus,
  type EventBus,
  type SubscribeOptions,
  type TraceEvent,
  type Unsubscribe,
} from './types';

interface Sub {
  runId: string;
  last: number;
  fn: (e: TraceEvent) => void;
  onResync?: () => void;
}

export interface RedisEventBusOptions {
  prefix?: string;
  /** Seconds a stream is kept after its last event (default 300; the app passes EVENTS_RETENTION_S). */
  ttlSeconds?: number;
  /** Approximate cap on a stream's entries (default 10,000). */
  maxLen?: number;
}

export const DEFAULT_EVENTS_RETENTION_S = 300;
const DEFAULT_MAX_LEN = 10_000;
/** Seconds a stream is kept after its run ended or left this process (at most; never longer than ttlSeconds). */
export const ENDED_TTL_S = 30;
const BLOCK_MS = 5000;
const DROPPED = Symbol('dropped');

type XReadReply = Array<[string, Array<[string, string[]]>]> | null;

export class RedisEventBus implements EventBus {
  readonly kind = 'redis-streams';
  private readonly pub: Redis;
  private readonly reader: Redis;
  private readonly ttl: number;
  private readerId?: number;
  private subs = new Set<Sub>();
  private loop?: Promise<void>;
  private wakeLoop?: () => void;
  /** Gives up on the reader's command in flight: after its connection drops it never answers. */
  private abandon?: () => void;
  /** A connection dropped since subscribers were last told to resync. */
  private mayHaveLost = false;
  private closed = false;

  constructor(
    url: string,
    private readonly opts: RedisEventBusOptions = {},
  ) {
    this.ttl = opts.ttlSeconds ?? DEFAULT_EVENTS_RETENTION_S;
    // The publisher queues commands through a short blip (a few reconnect attempts) and then fails them: an event
    // lost that way is in the store, and subscribers are told to resync when the bus is back.
    this.pub = new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, enableAutoPipelining: true });
    // The reader never queues: an XREAD sent while it is down would pile up behind others and block in turn after
    // the reconnect. Unanswered commands are not re-sent either (the loop issues a fresh XREAD with current cursors).
    this.reader = new Redis(url, {
      maxRetriesPerRequest: null,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
    });
    for (const c of [this.pub, this.reader]) {
      c.on('error', () => {});
      c.on('close', () => {
        this.mayHaveLost = true;
      });
      c.on('ready', () => this.afterReconnect());
    }
    this.reader.on('close', () => {
      this.readerId = undefined;
      this.abandon?.();
    });
    this.reader.on('ready', () => this.wakeLoop?.());
  }

  status(): BusStatus {
    if (this.closed) return { ok: false, reason: 'event bus closed' };
    const down = [
      ['publisher', this.pub.status],
      ['reader', this.reader.status],
    ].filter(([, s]) => s !== 'ready');
    if (!down.length) return { ok: true };
    return { ok: false, reason: `Redis not ready: ${down.map(([name, s]) => `${name} connection ${s}`).join(', ')}` };
  }

  private key(runId: string) {
    return `${this.opts.prefix ?? 'paiflow:'}run:${runId}`;
  }

  publish(e: TraceEvent): void {
    // Commands on one connection are executed in order, so stream order = seq order. A failed XADD (Redis down,
    // or an id not above the last) loses only the live copy: subscribers fill gaps from the store.
    const key = this.key(e.runId);
    const maxLen = String(this.opts.maxLen ?? DEFAULT_MAX_LEN);
    this.pub.xadd(key, 'MAXLEN', '~', maxLen, `${e.seq}-0`, 'e', JSON.stringify(e)).catch(() => {});
    this.pub.expire(key, TERMINAL_EVENT_TYPES.has(e.type) ? this.endedTtl : this.ttl).catch(() => {});
  }

  subscribe(
    runId: string,
    afterSeq: number,
    onEvent: (e: TraceEvent) => void,
    opts: SubscribeOptions = {},
  ): Unsubscribe {
    const sub: Sub = { runId, last: afterSeq, fn: onEvent, onResync: opts.onResync };
    this.subs.add(sub);
    this.ensureLoop();
    this.wakeLoop?.();
    this.unblockReader();
    return () => {
      this.subs.delete(sub);
    };
  }

  release(runId: string): void {
    this.pub.expire(this.key(runId), this.endedTtl).catch(() => {});
  }

  private get endedTtl(): number {
    return Math.min(this.ttl, ENDED_TTL_S);
  }

  /** Both connections are back after a drop: whatever was published meanwhile must come from the store. */
  private afterReconnect() {
    if (!this.mayHaveLost || this.closed || !this.status().ok) return;
    this.mayHaveLost = false;
    for (const s of [...this.subs]) {
      try {
        s.onResync?.();
      } catch {
        /* a broken subscriber must not stop the others */
      }
    }
  }

  private unblockReader() {
    // Only on a ready publisher: a queued UNBLOCK could reach a restarted Redis where that id is someone else's.
    if (this.readerId !== undefined && this.pub.status === 'ready')
      this.pub.call('CLIENT', 'UNBLOCK', String(this.readerId)).catch(() => {});
  }

  /** Sleeps until a subscription arrives or the reader is ready again (with a slow timer as a backstop). */
  private pause(ms: number) {
    return new Promise<void>((r) => {
      this.wakeLoop = r;
      setTimeout(r, ms).unref?.();
    }).finally(() => {
      this.wakeLoop = undefined;
    });
  }

  private ensureLoop() {
    if (this.loop) return;
    this.loop = (async () => {
      while (!this.closed) {
        if (!this.subs.size || this.reader.status !== 'ready') {
          await this.pause(1000);
          continue;
        }
        try {
          // The id is per connection: fetched before the first XREAD on each one, so nothing blocks ahead of it.
          if (this.readerId === undefined) {
            const id = await this.untilDropped(this.reader.client('ID'));
            if (id === DROPPED) continue;
            this.readerId = Number(id);
          }
          const res = await this.untilDropped(this.readOnce());
          if (res !== DROPPED && res) this.deliver(res);
        } catch {
          if (this.closed) break;
          await this.pause(200); // unblocked or reconnecting: re-read with fresh cursors
        }
      }
    })();
  }

  /** `p`, or DROPPED when the reader's connection drops first (ioredis then never settles `p`). */
  private untilDropped<T>(p: Promise<T>): Promise<T | typeof DROPPED> {
    return new Promise<T | typeof DROPPED>((resolve, reject) => {
      this.abandon = () => resolve(DROPPED);
      p.then(resolve, reject);
    }).finally(() => {
      this.abandon = undefined;
    });
  }

  private readOnce(): Promise<XReadReply> {
    // The lowest cursor per run: subscribers that are further along drop what they have already seen.
    const cursors = new Map<string, number>();
    for (const s of this.subs) cursors.set(s.runId, Math.min(cursors.get(s.runId) ?? Infinity, s.last));
    const runIds = [...cursors.keys()];
    return this.reader.xread(
      'COUNT',
      1000,
      'BLOCK',
      BLOCK_MS,
      'STREAMS',
      ...runIds.map((r) => this.key(r)),
      ...runIds.map((r) => `${cursors.get(r)}-0`),
    ) as Promise<XReadReply>;
  }

  private deliver(res: NonNullable<XReadReply>) {
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

  async close(): Promise<void> {
    this.closed = true;
    this.wakeLoop?.();
    this.unblockReader();
    this.reader.disconnect();
    await this.loop?.catch(() => {});
    // QUIT waits for an answer; a publisher that is not connected is just dropped.
    if (this.pub.status === 'ready') await this.pub.quit().catch(() => this.pub.disconnect());
    else this.pub.disconnect();
  }
}
