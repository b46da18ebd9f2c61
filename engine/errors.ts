/**
 * One error type for the engine layer. `code` is stable and machine-readable and says what went wrong; `path` points
 * into the offending JSON (e.g. `nodes[3].data.config.model`). The engine never chooses an HTTP status: the HTTP edge
 * does, from the code (lib/http/error-statuses.ts).
 */
export class PaiError extends Error {
  readonly code: string;
  readonly path?: string;
  readonly details?: unknown;
  /** Whether retrying the same operation may succeed (network blips, 429, 5xx). */
  readonly retryable: boolean;

  constructor(
    code: string,
    message: string,
    opts: { path?: string; details?: unknown; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'PaiError';
    this.code = code;
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

/**
 * The stored workflow (not the request) is what is wrong: it cannot run or be published as it is — a graph problem
 * found when a run starts or a draft is published. Its code is the problem's (GRAPH_CYCLE, UNKNOWN_KEY …); the HTTP
 * edge answers it as unprocessable, where the same problem in a request's body is a bad request.
 */
export class WorkflowInvalidError extends PaiError {
  constructor(code: string, message: string, opts: ConstructorParameters<typeof PaiError>[2] = {}) {
    super(code, message, opts);
    this.name = 'WorkflowInvalidError';
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
