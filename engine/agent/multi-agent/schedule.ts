/**
 * Running a batch of independent steps with at most `limit` at once. When one fails, no further step of the batch
 * starts, the ones already running finish (their results are checkpointed, so a resume keeps them), and the first
 * failure is thrown.
 */
export async function runLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await run(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
}
