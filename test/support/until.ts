/**
 * The one polling helper of the tests: waits until `check` returns something truthy and returns it, or fails with
 * "timed out after … ms waiting for <what>" so that a hung condition names itself instead of ending in a bare test
 * timeout. `check` may be async and may throw to stop waiting early (e.g. a child process that already exited).
 */
export async function until<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 20_000,
  everyMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
