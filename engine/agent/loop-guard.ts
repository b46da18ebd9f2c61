/**
 * Loop guard: models stuck in a loop call the same tool with the same arguments again and again. Per tool name,
 * within the last `window` calls, a near-duplicate (same normalised JSON: key order, whitespace and string
 * spacing/case do not matter) is allowed with a warning from the `warnAt`-th time and blocked from the
 * `blockAt`-th time on. Blocked attempts count too, so a model that keeps insisting stays blocked.
 */
export interface LoopGuardOptions {
  window?: number;
  warnAt?: number;
  blockAt?: number;
}

export type LoopVerdict =
  | { action: 'allow' }
  | { action: 'warn'; count: number; message: string }
  | { action: 'block'; count: number; message: string };

/** Canonical text of a JSON value: sorted keys, trimmed/collapsed/lower-cased strings. Unparsable → squashed text. */
export function normaliseArgs(raw: string): string {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return `raw:${raw.replace(/\s+/g, '').toLowerCase()}`;
  }
  const canon = (x: unknown): unknown => {
    if (typeof x === 'string') return x.trim().replace(/\s+/g, ' ').toLowerCase();
    if (Array.isArray(x)) return x.map(canon);
    if (x && typeof x === 'object') {
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, canon((x as Record<string, unknown>)[k])]),
      );
    }
    return x;
  };
  return JSON.stringify(canon(v)) ?? 'null';
}

export class LoopGuard {
  private readonly window: number;
  private readonly warnAt: number;
  private readonly blockAt: number;
  private history: { name: string; key: string }[] = [];

  constructor(o: LoopGuardOptions = {}) {
    this.window = o.window ?? 20;
    this.warnAt = o.warnAt ?? 3;
    this.blockAt = o.blockAt ?? 5;
  }

  /** The calls it remembers, for an agent's checkpoint. */
  snapshot(): { name: string; key: string }[] {
    return this.history.map((h) => ({ ...h }));
  }

  /** Continues from a checkpoint's snapshot. */
  restore(history: { name: string; key: string }[]): this {
    this.history = history.slice(-this.window).map((h) => ({ name: String(h.name), key: String(h.key) }));
    return this;
  }

  /** Records the call and says what to do with it. */
  check(name: string, rawArgs: string): LoopVerdict {
    const key = normaliseArgs(rawArgs);
    const count = this.history.filter((h) => h.name === name && h.key === key).length + 1;
    this.history.push({ name, key });
    if (this.history.length > this.window) this.history.splice(0, this.history.length - this.window);
    if (count >= this.blockAt) {
      return {
        action: 'block',
        count,
        message:
          `loop guard: "${name}" was called with the same arguments ${count} times in the last ${this.window} ` +
          'calls; this call was not executed. Use the results you already have, change the arguments, or answer.',
      };
    }
    if (count >= this.warnAt) {
      return {
        action: 'warn',
        count,
        message:
          `[loop guard warning: this is call ${count} of "${name}" with the same arguments; ` +
          `the result is unlikely to change. From call ${this.blockAt} on it will be blocked.]`,
      };
    }
    return { action: 'allow' };
  }
}
