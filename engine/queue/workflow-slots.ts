/**
 * Per-workflow concurrency across worker processes: a Redis sorted set per workflow whose members are the run ids
 * holding a slot, scored by lease expiry (Redis server time, so worker clocks do not matter). Acquire, renew and
 * release are single Lua scripts, so two workers can never both take the last slot. A worker renews the leases of
 * the runs it executes; a killed worker's leases lapse after `leaseMs`. The member is the run id, so a re-delivered
 * job of the same run finds its own slot instead of needing a second one.
 */
import type Redis from 'ioredis';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const ACQUIRE = `${NOW}
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl * 2)
  return 1
end
return 0`;

// Re-adds as well as extends: after Redis lost its data the slots of running runs come back on the next renewal.
const RENEW = `${NOW}
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', key, ttl * 2)
end
return #KEYS`;

type SlotRedis = Redis & {
  pfSlotAcquire(key: string, member: string, limit: number, ttl: number): Promise<number>;
  pfSlotRenew(...args: Array<string | number>): Promise<number>;
};

export class WorkflowSlots {
  private readonly held = new Map<string, string>(); // runId → workflowId, held by this process
  private timer?: NodeJS.Timeout;
  private readonly r: SlotRedis;

  constructor(
    redis: Redis,
    private readonly o: { prefix: string; limit: number; leaseMs?: number },
  ) {
    this.r = redis as SlotRedis;
    if (!this.r.pfSlotAcquire) {
      this.r.defineCommand('pfSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
      this.r.defineCommand('pfSlotRenew', { lua: RENEW });
    }
  }

  get leaseMs(): number {
    return this.o.leaseMs ?? 30_000;
  }

  private key(workflowId: string) {
    return `${this.o.prefix}wf-slots:${workflowId}`;
  }

  /** Takes (or re-takes) the run's slot; false when the workflow is at its limit. */
  async acquire(workflowId: string, runId: string): Promise<boolean> {
    const ok = (await this.r.pfSlotAcquire(this.key(workflowId), runId, this.o.limit, this.leaseMs)) === 1;
    if (ok) {
      this.held.set(runId, workflowId);
      this.ensureRenewal();
    }
    return ok;
  }

  /** Stops renewing the slot here; `free` also gives it up at once (the run is no longer executing anywhere). */
  async release(workflowId: string, runId: string, free = true): Promise<void> {
    this.held.delete(runId);
    if (free) await this.r.zrem(this.key(workflowId), runId);
  }

  async count(workflowId: string): Promise<number> {
    const t = await this.r.time();
    return this.r.zcount(this.key(workflowId), Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000), '+inf');
  }

  private ensureRenewal() {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        if (!this.held.size) return;
        const entries = [...this.held.entries()];
        this.r
          .pfSlotRenew(
            entries.length,
            ...entries.map(([, wf]) => this.key(wf)),
            this.leaseMs,
            ...entries.map(([run]) => run),
          )
          .catch(() => {});
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    this.timer.unref?.();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
