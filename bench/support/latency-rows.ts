/** Timing one call and a row of its latencies, for the benches that time a sandbox call (code-node, python). */

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Milliseconds `fn` took; a result that is not ok stops the bench. */
export async function timed(fn: () => Promise<{ ok: boolean }>): Promise<number> {
  const t0 = performance.now();
  const r = await fn();
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`bench execution failed: ${JSON.stringify(r)}`);
  return ms;
}

/** A table row: how many runs, p50, p95 and max in ms. */
export function latencyRow(what: string, xs: number[]) {
  return {
    what,
    runs: xs.length,
    'p50 ms': +pct(xs, 50).toFixed(2),
    'p95 ms': +pct(xs, 95).toFixed(2),
    'max ms': +Math.max(...xs).toFixed(2),
  };
}
