/**
 * "Did you mean …?" for a key a schema does not know: the known key that differs only in case, else the closest
 * one by edit distance (at most 2, and under half the key's length, so a short key is not turned into another word).
 */

/**
 * Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours as one edit (optimal
 * string alignment: `nmae` is one edit from `name`), stopping early once it exceeds `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cur[j] = Math.min(cur[j], before[j - 2] + 1);
      if (cur[j] < best) best = cur[j];
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** The known key `key` was most likely meant to be, or undefined when none is close. */
export function suggestKey(key: string, known: Iterable<string>): string | undefined {
  const keys = [...known].filter((k) => k !== key);
  const lower = key.toLowerCase();
  const sameLetters = keys.find((k) => k.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const max = Math.min(2, Math.floor((key.length - 1) / 2));
  let best: { key: string; distance: number } | undefined;
  for (const k of keys) {
    const d = editDistance(lower, k.toLowerCase(), max);
    if (d <= max && (!best || d < best.distance)) best = { key: k, distance: d };
  }
  return best?.key;
}
