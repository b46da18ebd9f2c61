// Guarantees: the SSE contract (contiguous ids from the cursor, replay, close after the terminal event) holds with
// the Redis Streams event bus (REDIS_URL set) exactly as with the in-process bus: the same suite, run on Redis.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { describe, expect, it } from 'vitest';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
probe.on('error', () => {});
const reachable = await probe.connect().then(() => probe.ping()).then(() => true, () => false);
probe.disconnect();

if (reachable) {
  process.env.REDIS_URL = REDIS_URL;
  process.env.REDIS_PREFIX = `paiflow-test-${randomUUID().slice(0, 8)}:`;
  await import('./sse-replays-and-closes.test');
  describe('bus in use', () => {
    it('is Redis Streams', async () => {
      const { getApp } = await import('@/lib/server/app');
      expect((await getApp()).health().bus).toBe('redis-streams');
    });
  });
} else {
  if (process.env.CI === 'true') throw new Error(`Redis is required under CI but unreachable at ${REDIS_URL}`);
  describe('SSE over Redis Streams', () => {
    it.skip(`SKIPPED: Redis not reachable at ${REDIS_URL}`, () => {});
  });
}
