/**
 * Secrets a node is given while it executes, and their echoes removed from everything it produces. A model server
 * (or any server) may answer with what it was sent — a debug endpoint echoing the Authorization header, a model told
 * to repeat its instructions — and what a node produces is stored and shown: its output, its trace events (streamed
 * tokens and tool results included), its error, its checkpoint. The runtime wraps every node's services so that each
 * secret value handed to the node is noted, and passes everything the node produces through `scrub` — one place for
 * every node type, instead of each node redacting its own.
 *
 * Noted: named secrets (`secrets.get`), the secret fields of credentials (`credentials.resolve`), the API key an LLM
 * provider is resolved with (`llm(settings)`), and the process's own provider keys (`knownSecrets`, e.g.
 * OPENAI_API_KEY, which a node uses without being handed it). Values shorter than 8 characters are not secrets worth
 * the false positives.
 */
import type { CredentialResolver, ResolvedCredential } from '../credentials/types';
import type { TraceEvent } from '../events/types';
import type { LlmResolver } from '../llm/types';
import type { NodeCheckpoint, SecretsReader } from '../node-kit/define';
import { scrub } from '../text/scrub';

const MIN_LENGTH = 8;

type EmitOptions = { spanId?: string; parentSpanId?: string } | undefined;
export type NodeEmit = (type: TraceEvent['type'], data: Record<string, unknown>, opts?: EmitOptions) => void;
/** Credential fields that say where or as whom, not the secret itself. */
const NOT_SECRET = new Set(['baseUrl', 'header', 'headerName', 'username', 'name']);

export class GivenSecrets {
  private readonly values = new Set<string>();
  private longest = 0;

  constructor(known: Iterable<string | undefined> = []) {
    for (const v of known) this.note(v);
  }

  /** Notes a value handed to the node; returns it unchanged. */
  note<T>(value: T): T {
    if (typeof value === 'string') {
      const v = value.trim();
      if (v.length >= MIN_LENGTH && !this.values.has(v)) {
        this.values.add(v);
        this.longest = Math.max(this.longest, v.length);
      }
    }
    return value;
  }

  /** `value` with every noted secret replaced by "[redacted]", deeply (strings and keys). */
  scrub<T>(value: T): T {
    return this.values.size ? scrub(value, [...this.values]) : value;
  }

  /** How many trailing characters of `text` could be the start of a noted secret (to hold back in a stream). */
  private pendingPrefix(text: string): number {
    for (let n = Math.min(this.longest - 1, text.length); n > 0; n--) {
      const tail = text.slice(text.length - n);
      for (const v of this.values) if (v.startsWith(tail)) return n;
    }
    return 0;
  }

  /**
   * A redactor for one stream of text deltas: `push` returns what may be shown now — with secrets replaced, and
   * holding back a tail that could still become one with the next delta — and `flush` the rest at the end.
   */
  stream(): { push(delta: string): string; flush(): string } {
    let pending = '';
    return {
      push: (delta) => {
        const text = this.scrub(pending + delta);
        const hold = this.values.size ? this.pendingPrefix(text) : 0;
        pending = text.slice(text.length - hold);
        return text.slice(0, text.length - hold);
      },
      flush: () => {
        const rest = this.scrub(pending);
        pending = '';
        return rest;
      },
    };
  }

  /**
   * `emit` with every event scrubbed. Tokens go through one redactor per span; a span's held-back tail goes out
   * before any other event, and at `flush` (when the attempt ends). `shown` is told each token delta sent.
   */
  redactedEmit(emit: NodeEmit, shown: (delta: string) => void): { emit: NodeEmit; flush(): void } {
    const streams = new Map<string, { stream: ReturnType<GivenSecrets['stream']>; opts: EmitOptions }>();
    const flush = () => {
      for (const { stream, opts } of streams.values()) {
        const rest = stream.flush();
        if (rest) emit('node.token', { delta: rest }, opts);
      }
      streams.clear();
    };
    return {
      flush,
      emit: (type, data, opts) => {
        if (type === 'node.token' && typeof data.delta === 'string') {
          const key = opts?.spanId ?? '';
          let open = streams.get(key);
          if (!open) streams.set(key, (open = { stream: this.stream(), opts }));
          const delta = open.stream.push(data.delta);
          if (!delta) return;
          shown(delta);
          emit(type, { ...data, delta }, opts);
          return;
        }
        flush();
        emit(type, this.scrub(data), opts);
      },
    };
  }

  /** The node's services, noting every secret value they hand out. */
  wrap<S extends { llm: LlmResolver; secrets: SecretsReader; credentials?: CredentialResolver }>(services: S): S {
    const { llm, secrets, credentials } = services;
    return {
      ...services,
      llm: (settings) => {
        this.note(settings?.apiKey);
        return llm(settings);
      },
      secrets: {
        get: (name: string) => this.note(secrets.get(name)),
        ...(secrets.hosts ? { hosts: (name: string) => secrets.hosts!(name) } : {}),
      },
      ...(credentials
        ? {
            credentials: {
              resolve: async (runId: string, id: string) => this.noteCredential(await credentials.resolve(runId, id)),
            },
          }
        : {}),
    };
  }

  /** A checkpoint whose saved state never holds a noted secret. */
  checkpoint(handle: NodeCheckpoint): NodeCheckpoint {
    return { load: () => handle.load(), save: (state) => handle.save(this.scrub(state)) };
  }

  private noteCredential(cred: ResolvedCredential): ResolvedCredential {
    for (const [k, v] of Object.entries(cred.data)) if (!NOT_SECRET.has(k)) this.note(v);
    return cred;
  }
}
