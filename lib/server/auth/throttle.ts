/**
 * Sign-in throttling in the database (so that it holds across replicas): after MAX_FAILURES failures of one key
 * (an account, a client address) within the window, sign-ins for that key answer 429 with Retry-After.
 */
import { PaiError } from '@/engine/errors';
import type { PrismaClient } from '@/engine/store/prisma/generated/client';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;

export async function checkThrottle(prisma: PrismaClient, keys: string[]): Promise<void> {
  const since = new Date(Date.now() - WINDOW_MS);
  for (const key of keys) {
    const recent = await prisma.authFailure.findMany({
      where: { key, at: { gt: since } },
      orderBy: { at: 'desc' },
      take: MAX_FAILURES,
      select: { at: true },
    });
    if (recent.length >= MAX_FAILURES) {
      const oldest = recent[recent.length - 1].at.getTime();
      const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - Date.now()) / 1000));
      throw new PaiError('TOO_MANY_ATTEMPTS', `too many failed sign-ins; try again in ${retryAfter} s`, {
        status: 429,
        details: { retryAfter },
      });
    }
  }
}

export async function recordFailure(prisma: PrismaClient, keys: string[]): Promise<void> {
  await prisma.authFailure.createMany({ data: keys.map((key) => ({ key })) });
  // Old rows are of no use: drop them now and then instead of keeping a table that grows with every failure.
  if (Math.random() < 0.05)
    await prisma.authFailure.deleteMany({ where: { at: { lt: new Date(Date.now() - WINDOW_MS) } } });
}

export async function clearFailures(prisma: PrismaClient, keys: string[]): Promise<void> {
  await prisma.authFailure.deleteMany({ where: { key: { in: keys } } });
}
