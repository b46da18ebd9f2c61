/**
 * Run inputs kept by reference. A caller may start a run with an input whose value lives elsewhere — a chat
 * conversation's earlier turns, which the conversation stores once — and give the run a reference to it instead
 * (`{ "$ref": "<kind>", …what identifies it }`). The run record keeps the reference; each execution (first start,
 * queue worker, resume) asks the resolver for the value, and every snapshot, event and output that would have carried
 * a copy of it keeps the reference instead. A chat of 40 turns then stores its history once, not 40 growing copies.
 *
 * Matching is by content, not identity: secret scrubbing, redaction and template rendering copy values. Only values
 * equal to a resolved one as a whole are replaced (an array, an object or a string): a template that embeds the
 * history in a longer text keeps that text.
 */
import { PaiError } from '../errors';

export interface InputRef {
  /** What kind of value this points at; the resolver knows each kind it serves. */
  $ref: string;
  [key: string]: unknown;
}

export interface InputRefResolver {
  /** The value `ref` stands for. Throws when it cannot be had. */
  resolve(ref: InputRef): Promise<unknown>;
}

export function isInputRef(v: unknown): v is InputRef {
  return !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { $ref?: unknown }).$ref === 'string';
}

interface Entry {
  ref: InputRef;
  refJson: string;
  value: unknown;
  /** JSON of an object value; the string itself for a string value. */
  json: string;
  length: number;
}

/** A run's resolved references: what its inputs stand for, and the way back for storage. */
export class RunInputRefs {
  static readonly none = new RunInputRefs([]);

  private constructor(private readonly entries: Entry[]) {}

  /** `inputs` with each reference replaced by its value, and the references for storage. */
  static async resolve(
    inputs: Record<string, unknown>,
    resolver: InputRefResolver | undefined,
  ): Promise<{ inputs: Record<string, unknown>; refs: RunInputRefs }> {
    const refs = Object.entries(inputs).filter(([, v]) => isInputRef(v)) as [string, InputRef][];
    if (!refs.length) return { inputs, refs: RunInputRefs.none };
    if (!resolver)
      throw new PaiError(
        'INPUT_REF_UNRESOLVED',
        `the run's input "${refs[0][0]}" is a reference nothing here resolves`,
      );
    const out = { ...inputs };
    const entries: Entry[] = [];
    for (const [name, ref] of refs) {
      let value: unknown;
      try {
        value = await resolver.resolve(ref);
      } catch (e) {
        throw new PaiError('INPUT_REF_UNRESOLVED', `the run's input "${name}" (${ref.$ref}): ${(e as Error).message}`);
      }
      out[name] = value;
      entries.push(entryOf(ref, value));
    }
    return { inputs: out, refs: new RunInputRefs(entries) };
  }

  /** `value` with every part equal to a resolved input replaced by its reference: what storage keeps. */
  byReference<T>(value: T): T {
    if (!this.entries.length) return value;
    return this.swap(value, (v) => this.entries.find((e) => matches(e, v))?.ref) as T;
  }

  /** `value` with every reference of this run replaced by its value (stored outputs read back for a resume). */
  resolved<T>(value: T): T {
    if (!this.entries.length) return value;
    return this.swap(value, (v) => {
      if (!isInputRef(v)) return undefined;
      const json = JSON.stringify(v);
      return this.entries.find((e) => e.refJson === json)?.value;
    }) as T;
  }

  private swap(value: unknown, replace: (v: unknown) => unknown, depth = 0): unknown {
    const r = replace(value);
    if (r !== undefined) return r;
    if (depth > 20 || !value || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.swap(v, replace, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = this.swap(v, replace, depth + 1);
    return out;
  }
}

function entryOf(ref: InputRef, value: unknown): Entry {
  const json = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  const length = typeof value === 'string' ? value.length : Array.isArray(value) ? value.length : -1;
  return { ref, refJson: JSON.stringify(ref), value, json, length };
}

/** Cheap checks first (kind and length), then the content. Empty values are not worth a reference. */
function matches(e: Entry, v: unknown): boolean {
  if (typeof v === 'string')
    return typeof e.value === 'string' && v.length === e.length && v.length > 0 && v === e.json;
  if (!v || typeof v !== 'object' || typeof e.value !== 'object' || e.value === null) return false;
  if (Array.isArray(v) !== Array.isArray(e.value)) return false;
  if (Array.isArray(v) && (v.length !== e.length || v.length === 0)) return false;
  if (!Array.isArray(v) && Object.keys(v).length !== Object.keys(e.value).length) return false;
  return JSON.stringify(v) === e.json;
}
