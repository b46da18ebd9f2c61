// Guarantees: the SSE contract (contiguous ids from the cursor, replay, close after the terminal event) holds with
// the Redis Streams event bus (REDIS_URL set) exactly as with the in-process bus: the same suite, run on Redis.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL as REDIS_URL } from '../support/databases';

if (await redisAvailable(REDIS_URL)) {
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
  describe('SSE over Redis Streams', () => {
    it.skip(`SKIPPED: Redis not reachable at ${REDIS_URL}`, () => {});
  });
}
