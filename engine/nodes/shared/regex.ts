/**
 * Regular expressions of condition and loop nodes, on RE2 (re2js): no backtracking, so matching is linear in the
 * input — but linear with a factor, the compiled program's size: `(.*a){200}` is a 1,000-instruction program, and
 * on a 190 kB value that is seconds of CPU. So a pattern is checked before it is compiled (length, repeat counts,
 * an estimate of its program size, then the real size), and a match whose cost (program size × input length) is
 * more than a millisecond or so runs in a worker thread with a time limit instead of on the event loop.
 */
import { RE2JS } from 're2js';
import { cpuLimits, type CpuLimits } from '../../cpu/limits';
import { regexInWorker } from '../../cpu/tasks';
import { PaiError } from '../../errors';

/**
 * Program size × input characters at or below which a match runs inline. Measured on this project's 2-core machine:
 * at this size RE2's bit-state matcher runs (`(.*a){20}` on 480 characters: about 20 µs, `^\d{5}$` on a zip code:
 * about 10 µs with the limit checks); on large inputs its NFA costs 10–20 ns per instruction and character; a
 * worker round trip costs about 170 µs. So an ordinary condition stays inline, and nothing inline reaches 1 ms.
 */
export const INLINE_REGEX_COST = 50_000;

type RegexLimits = Pick<CpuLimits, 'regexMaxPatternLength' | 'regexMaxRepeat' | 'regexMaxProgramSize'>;

function tooComplex(message: string, path?: string): PaiError {
  return new PaiError('REGEX_TOO_COMPLEX', message, { path });
}

/**
 * An upper estimate of RE2's program size for `pattern` and its largest repeat count, from one linear scan (no
 * compilation): a counted repeat copies what it applies to, nested repeats multiply. Escapes, classes and group
 * prefixes are skipped well enough for an estimate; the compiled program's own size is checked afterwards.
 */
export function estimateRegex(pattern: string): { size: number; maxRepeat: number } {
  const totals = [0];
  let last = 0; // size of the atom a quantifier would apply to
  let maxRepeat = 0;
  const add = (size: number) => {
    totals[totals.length - 1] += size;
    last = size;
  };
  const n = pattern.length;
  for (let i = 0; i < n;) {
    const c = pattern[i];
    if (c === '\\') {
      const d = pattern[i + 1];
      if ((d === 'p' || d === 'P' || d === 'x') && pattern[i + 2] === '{') {
        const j = pattern.indexOf('}', i + 3);
        i = j < 0 ? n : j + 1;
        add(1);
      } else if (d === 'Q') {
        const j = pattern.indexOf('\\E', i + 2);
        add(Math.max(1, (j < 0 ? n : j) - (i + 2)));
        i = j < 0 ? n : j + 2;
      } else {
        i += 2;
        add(1);
      }
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      for (; j < n && pattern[j] !== ']'; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '[' && pattern[j + 1] === ':') {
          const k = pattern.indexOf(':]', j + 2);
          if (k >= 0) j = k + 1;
        }
      }
      i = j + 1;
      add(1);
    } else if (c === '(') {
      i++;
      if (pattern[i] === '?') {
        // (?:…) (?i) (?i:…) (?P<name>…) (?<name>…): skip the prefix; a flags-only group matches nothing.
        let k = i + 1;
        while (k < n && pattern[k] !== ':' && pattern[k] !== ')' && pattern[k] !== '>') k++;
        if (pattern[k] === ')') {
          i = k + 1;
          last = 0;
          continue;
        }
        i = k + 1;
      }
      totals.push(0);
      last = 0;
    } else if (c === ')') {
      i++;
      if (totals.length > 1) add(totals.pop()! + 2);
    } else if (c === '|') {
      i++;
      totals[totals.length - 1] += 1;
      last = 0;
    } else if (c === '*' || c === '+' || c === '?') {
      i++;
      totals[totals.length - 1] += 1;
      last = 0;
    } else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i, i + 48));
      if (!m) {
        i++;
        add(1);
        continue;
      }
      i += m[0].length;
      const lo = Number(m[1]);
      const hi = m[2] === undefined ? lo : m[3] ? Number(m[3]) : undefined;
      maxRepeat = Math.max(maxRepeat, lo, hi ?? 0);
      // x{n} is n copies of x; x{n,m} adds (m-n) optional copies; x{n,} adds a loop.
      const copies = Math.max(lo, hi ?? lo, 1);
      totals[totals.length - 1] += last * (copies - 1) + (hi === undefined ? 1 : hi - lo);
      last = 0;
    } else {
      i++;
      add(1);
    }
  }
  while (totals.length > 1) totals[totals.length - 2] += totals.pop()! + 2;
  return { size: totals[0] + 2, maxRepeat };
}

/** Throws REGEX_TOO_COMPLEX (400, saying which limit) when the pattern is over a limit; cheap, no compilation. */
export function checkRegexPattern(pattern: string, limits: RegexLimits = cpuLimits(), path?: string): void {
  if (pattern.length > limits.regexMaxPatternLength)
    throw tooComplex(
      `the regular expression has ${pattern.length} characters; the limit is ${limits.regexMaxPatternLength} ` +
        '(REGEX_MAX_PATTERN_LENGTH)',
      path,
    );
  const { size, maxRepeat } = estimateRegex(pattern);
  if (maxRepeat > limits.regexMaxRepeat)
    throw tooComplex(
      `the regular expression repeats something ${maxRepeat} times; the limit is ${limits.regexMaxRepeat} ` +
        '(REGEX_MAX_REPEAT)',
      path,
    );
  if (size > limits.regexMaxProgramSize)
    throw tooComplex(
      `the regular expression compiles to about ${size} instructions; the limit is ${limits.regexMaxProgramSize} ` +
        '(REGEX_MAX_PROGRAM_SIZE): use fewer or smaller counted repeats',
      path,
    );
}

const cache = new Map<string, RE2JS>();

/**
 * Features of backtracking engines (JavaScript, PCRE, Java) that RE2 leaves out to stay linear, by the construct
 * RE2's parser stopped at. A pattern that uses one is REGEX_UNSUPPORTED (saying which), not a generic syntax error.
 */
function unsupportedFeature(construct: string): string | undefined {
  if (/^\\[1-9]/.test(construct)) return `a backreference (${construct.slice(0, 2)})`;
  if (construct.startsWith('\\k')) return 'a named backreference (\\k<name>)';
  if (construct.startsWith('(?=')) return 'a lookahead ((?=…))';
  if (construct.startsWith('(?!')) return 'a negative lookahead ((?!…))';
  if (construct.startsWith('(?<=')) return 'a lookbehind ((?<=…))';
  if (construct.startsWith('(?<!')) return 'a negative lookbehind ((?<!…))';
  if (construct.startsWith('(?>')) return 'an atomic group ((?>…))';
  const possessive = /^(?:[*+?]|\{\d+(?:,\d*)?\})\+/.exec(construct);
  if (possessive) return `a possessive quantifier (${possessive[0]})`;
  return undefined;
}

/** The error for a pattern RE2 cannot compile: REGEX_UNSUPPORTED naming the feature, else INVALID_REGEX. */
function syntaxError(e: unknown, path?: string): PaiError {
  const construct = (e as { input?: unknown }).input;
  const feature = typeof construct === 'string' ? unsupportedFeature(construct) : undefined;
  if (feature)
    return new PaiError(
      'REGEX_UNSUPPORTED',
      `the regular expression uses ${feature}, which RE2 does not support: patterns run on RE2, which matches in ` +
        'linear time and has no backreferences, lookahead, lookbehind, atomic groups or possessive quantifiers',
      { path, details: { feature } },
    );
  return new PaiError('INVALID_REGEX', `invalid regular expression: ${(e as Error).message}`, { path });
}

/**
 * Save-time check of a written-out pattern: over a limit (REGEX_TOO_COMPLEX), a feature RE2 lacks (REGEX_UNSUPPORTED)
 * or invalid syntax (INVALID_REGEX) throws, with `path`; what passes also compiles when the node runs.
 */
export function checkRegexForSave(pattern: string, path?: string): void {
  const limits = cpuLimits();
  checkRegexPattern(pattern, limits, path);
  if (cache.has(pattern)) return;
  try {
    RE2JS.compile(pattern);
  } catch (e) {
    throw syntaxError(e, path);
  }
}

/** Checks and compiles a pattern (cached); REGEX_UNSUPPORTED / INVALID_REGEX for what RE2 cannot compile. */
export function compileRegex(pattern: string, limits: RegexLimits = cpuLimits()): RE2JS {
  checkRegexPattern(pattern, limits);
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw syntaxError(e);
    }
    if (cache.size > 500) cache.clear();
    cache.set(pattern, re);
  }
  // The estimate is a scan, not RE2's compiler: the compiled size is the one that counts.
  if (re.programSize() > limits.regexMaxProgramSize)
    throw tooComplex(
      `the regular expression compiles to ${re.programSize()} instructions; the limit is ` +
        `${limits.regexMaxProgramSize} (REGEX_MAX_PROGRAM_SIZE)`,
    );
  return re;
}

/** Whether `pattern` matches somewhere in `input`, inline (the match on the event loop stays under a millisecond). */
export function regexFindInline(pattern: string, input: string): boolean {
  return compileRegex(pattern).matcher(input).find();
}

/**
 * Whether `pattern` matches somewhere in `input`: inline when that is cheap, else in a worker thread, failing with
 * REGEX_TIMEOUT after REGEX_TIMEOUT_MS of matching. `signal` (the node's) cancels it, worker included.
 */
export async function regexFind(pattern: string, input: string, opts: { signal?: AbortSignal } = {}): Promise<boolean> {
  const limits = cpuLimits();
  const re = compileRegex(pattern, limits);
  if (re.programSize() * Math.max(1, input.length) <= INLINE_REGEX_COST) return re.matcher(input).find();
  return regexInWorker(pattern, input, { timeoutMs: limits.regexTimeoutMs, signal: opts.signal });
}
