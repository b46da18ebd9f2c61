/**
 * Node inputs and outputs as they are stored: never larger than NODE_OUTPUT_MAX_BYTES (1 MB by default, what a
 * browser shows without trouble). A larger value keeps its shape, but its largest strings are moved into artifacts
 * and replaced by a reference — the artifact's `{ artifactId, url, contentType, bytes, name }` plus `offloaded`,
 * `chars` and a `preview` of the start — until it fits; a value that still does not fit (many small parts) becomes one
 * JSON artifact. Snapshots, events, the run record and the published API then carry kilobytes instead of megabytes,
 * and nothing on the event loop serialises, copies or sends the big value again.
 *
 * Only what is stored changes: the node's successors in the same run get the full value. A resume reads the stored
 * outputs back, so restoreOffloaded() puts the artifacts' contents back in place before the run continues.
 */
import type { ArtifactRef, NodeArtifacts } from '../artifacts/types';

/** A stored stand-in for a value that lives in an artifact. */
export interface OffloadedRef extends ArtifactRef {
  offloaded: 'text' | 'json';
  /** The string's length (text) or the JSON's length (json), in characters. */
  chars: number;
  preview: string;
}

/**
 * The strings a run has offloaded so far, by content: the same string passed on (an End node's output that becomes
 * the run's outputs) reuses its artifact instead of writing the file again.
 */
export type OffloadMemo = Map<string, OffloadedRef>;

export interface LargeValueStore {
  /** Stores `text` as an artifact of the node; `key` makes a retry or resume overwrite instead of adding one. */
  save(text: string, o: { contentType: string; name: string; key: string }): Promise<ArtifactRef>;
}

/**
 * `value` (a node's input or output, `part` says which) as the run record may keep it: see capForStorage. `maxBytes`:
 * the run's NODE_OUTPUT_MAX_BYTES. Without an artifact service (a bare engine in a test) the value is kept as it is.
 */
export function storedForm(
  value: unknown,
  part: string,
  o: { runId: string; nodeId: string; artifacts?: NodeArtifacts; memo?: OffloadMemo; maxBytes: number },
): Promise<unknown> {
  const { artifacts, runId, nodeId, memo } = o;
  const store: LargeValueStore | undefined = artifacts && {
    save: async (text, file) =>
      artifacts.save(runId, nodeId, {
        bytes: await utf8Yielding(text),
        contentType: file.contentType,
        name: file.name,
        key: file.key,
      }),
  };
  return capForStorage(value, o.maxBytes, part, store, memo);
}

const ENCODE_CHUNK_CHARS = 1 << 20;

/**
 * `text` as UTF-8, a megabyte of characters at a time with a turn for the event loop between: encoding 9.5 M
 * characters at once held it for ~30 ms. A chunk never ends between the two halves of a surrogate pair.
 */
async function utf8Yielding(text: string): Promise<Buffer> {
  if (text.length <= ENCODE_CHUNK_CHARS) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + ENCODE_CHUNK_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(Buffer.from(text.slice(start, end), 'utf8'));
    start = end;
    await new Promise((r) => setImmediate(r));
  }
  return Buffer.concat(parts);
}

/** `value` with its offloaded parts read back from the run's artifacts (for a resume). */
export function restoredForm(value: unknown, runId: string, artifacts: NodeArtifacts | undefined): Promise<unknown> {
  if (!artifacts || !hasOffloaded(value)) return Promise.resolve(value);
  return restoreOffloaded(value, async (id) => Buffer.from((await artifacts.read(runId, id)).bytes).toString('utf8'));
}

const PREVIEW_CHARS = 1000;
/** Strings shorter than this stay in place: moving them would not help and would cost a file each. */
const MIN_OFFLOAD_CHARS = 4096;
const MAX_DEPTH = 64;

interface Found {
  path: (string | number)[];
  text: string;
  bytes: number;
}

/**
 * The value's size as JSON, in bytes, near enough (escapes are not counted): its strings' UTF-8 lengths plus a little
 * per item. No serialisation and no copy: this runs for every node's input and output.
 */
function measure(
  value: unknown,
  limitBytes: number,
  strings: Found[],
  path: (string | number)[],
  depth: number,
): number {
  if (typeof value === 'string') {
    // A string longer than the limit is over it whatever its bytes: counting them would only cost time (seen: ~20 ms
    // for 9.5 M characters, on the event loop). Its length then stands for its size (a lower bound).
    const bytes = value.length > limitBytes ? value.length : Buffer.byteLength(value, 'utf8');
    if (value.length >= MIN_OFFLOAD_CHARS) strings.push({ path: [...path], text: value, bytes });
    return bytes + 2;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return 8;
  // `path` is one stack for the whole walk (copied only for a string worth moving): this runs for every node's input
  // and output, nearly all of them small.
  let size = 2;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      path.push(i);
      size += 1 + measure(v, limitBytes, strings, path, depth + 1);
      path.pop();
    });
    return size;
  }
  for (const [k, v] of Object.entries(value)) {
    path.push(k);
    size += k.length + 4 + measure(v, limitBytes, strings, path, depth + 1);
    path.pop();
  }
  return size;
}

function setAt(root: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = setAt(root[head as number], rest, replacement);
    return copy;
  }
  const obj = root as Record<string, unknown>;
  return { ...obj, [head]: setAt(obj[head as string], rest, replacement) };
}

const nameOf = (label: string, path: (string | number)[], ext: string) =>
  `${[label, ...path]
    .join('.')
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, 100)}.${ext}`;

/**
 * `value` as it may be stored: itself when it fits in `limitBytes`, else with its largest strings (or the whole
 * value) in artifacts. `label` names the files (e.g. "summarise.output").
 */
export async function capForStorage(
  value: unknown,
  limitBytes: number,
  label: string,
  store: LargeValueStore | undefined,
  memo?: OffloadMemo,
): Promise<unknown> {
  const strings: Found[] = [];
  let size = measure(value, limitBytes, strings, [], 0);
  if (size <= limitBytes || !store) return value;
  strings.sort((a, b) => b.bytes - a.bytes);
  let out = value;
  for (const s of strings) {
    if (size <= limitBytes) break;
    let stub = memo?.get(s.text);
    if (!stub) {
      const ref = await store.save(s.text, {
        contentType: 'text/plain; charset=utf-8',
        name: nameOf(label, s.path, 'txt'),
        key: `offloaded:${label}:${JSON.stringify(s.path)}`,
      });
      stub = { ...ref, offloaded: 'text', chars: s.text.length, preview: s.text.slice(0, PREVIEW_CHARS) };
      memo?.set(s.text, stub);
    }
    out = setAt(out, s.path, stub);
    size -= s.bytes - (Buffer.byteLength(stub.preview, 'utf8') + 300);
  }
  if (size <= limitBytes) return out;
  const json = JSON.stringify(out);
  if (Buffer.byteLength(json, 'utf8') <= limitBytes) return out;
  const ref = await store.save(json, {
    contentType: 'application/json',
    name: nameOf(label, [], 'json'),
    key: `offloaded:${label}:*`,
  });
  return {
    ...ref,
    offloaded: 'json',
    chars: json.length,
    preview: json.slice(0, PREVIEW_CHARS),
  } satisfies OffloadedRef;
}

function isOffloaded(v: unknown): v is OffloadedRef {
  const o = v as Partial<OffloadedRef> | null;
  return (
    !!o &&
    typeof o === 'object' &&
    (o.offloaded === 'text' || o.offloaded === 'json') &&
    typeof o.artifactId === 'string' &&
    typeof o.url === 'string'
  );
}

/** Whether anything in `value` was offloaded (a resume only reads artifacts when it must). */
export function hasOffloaded(value: unknown, depth = 0): boolean {
  if (isOffloaded(value)) return true;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  return Object.values(value).some((v) => hasOffloaded(v, depth + 1));
}

/** `value` with every offloaded part read back from its artifact (`read` gives the artifact's text). */
export async function restoreOffloaded(
  value: unknown,
  read: (artifactId: string) => Promise<string>,
  depth = 0,
): Promise<unknown> {
  if (isOffloaded(value)) {
    const text = await read(value.artifactId);
    return value.offloaded === 'json' ? restoreOffloaded(JSON.parse(text), read, depth + 1) : text;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || !hasOffloaded(value)) return value;
  if (Array.isArray(value)) {
    const out = [];
    for (const v of value) out.push(await restoreOffloaded(v, read, depth + 1));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = await restoreOffloaded(v, read, depth + 1);
  return out;
}
