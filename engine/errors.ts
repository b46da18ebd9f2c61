/**
 * One error type for the engine layer. `code` is stable and machine-readable; `status` is the HTTP status the
 * API layer maps it to (lib/http/errors.ts is the one place that does that mapping); `path` points into the
 * offending JSON (e.g. `nodes[3].data.config.model`).
 */
export class PaiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly path?: string;
  readonly details?: unknown;
  /** Whether retrying the same operation may succeed (network blips, 429, 5xx). */
  readonly retryable: boolean;

  constructor(
    code: string,
    message: string,
    opts: { status?: number; path?: string; details?: unknown; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'PaiError';
    this.code = code;
    this.status = opts.status ?? 400;
    this.path = opts.path;
    this.details = opts.details;
    this.retryable = opts.retryable ?? false;
  }

  toJSON(): ErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.path !== undefined ? { path: this.path } : {}),
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
}

export interface ErrorJson {
  code: string;
  message: string;
  path?: string;
  details?: unknown;
}

/** Normalises anything thrown into the JSON stored in snapshots and sent in events (never a stack trace). */
export function toErrorJson(err: unknown): ErrorJson {
  if (err instanceof PaiError) return err.toJSON();
  if (err instanceof Error) {
    if (err.name === 'AbortError') return { code: 'ABORTED', message: err.message || 'aborted' };
    return { code: 'NODE_ERROR', message: err.message };
  }
  return { code: 'NODE_ERROR', message: String(err) };
}
