/**
 * The Code node's limits. A node's `timeoutMs` and `memoryMb` choose within [min, max] (defaults below); the rest
 * are fixed: they bound what a run can make the server hold (output, console lines) or guard the sandbox itself
 * (stack), and no workflow has a reason to raise them.
 */

/** CPU time main may take, including its promise jobs (CODE_TIMEOUT). */
export const CODE_TIMEOUT_MS = { default: 1000, min: 10, max: 30_000 } as const;

/** Memory the sandbox's heap may grow to (CODE_MEMORY_LIMIT). */
export const CODE_MEMORY_MB = { default: 64, min: 8, max: 512 } as const;

/**
 * Characters of main's result as JSON (CODE_OUTPUT_TOO_LARGE): the same order as a template's output limit
 * (TEMPLATE_MAX_OUTPUT_CHARS), since a node's output is stored, sent in events and read by later nodes alike.
 */
export const CODE_MAX_OUTPUT_CHARS = 10_000_000;

/** Characters of the code itself. */
export const CODE_MAX_SOURCE_CHARS = 100_000;

/**
 * The sandbox's stack (QuickJS counts it in the WebAssembly module's own stack; about 5,000 plain recursive calls).
 * The worker thread's native stack must be much larger (CODE_THREAD_STACK_MB): each QuickJS frame is also a
 * WebAssembly frame on it, and a native overflow would end the call from outside QuickJS instead of as a JS error.
 * Measured: JSON.stringify of a deeply nested value, the hungriest case, needs a 16 MB native stack for a 1 MB
 * QuickJS stack.
 */
export const CODE_STACK_BYTES = 1024 * 1024;
export const CODE_THREAD_STACK_MB = 32;

/** console.* lines kept per execution, and characters per line and in all (more lines are counted, not kept). */
export const CODE_MAX_LOG_LINES = 200;
export const CODE_MAX_LOG_LINE_CHARS = 4000;
export const CODE_MAX_LOG_CHARS = 100_000;

/**
 * Time beyond `timeoutMs` after which the pool ends the worker thread itself. The sandbox stops its own code at
 * `timeoutMs` (an interrupt QuickJS checks as it runs); this is the backstop for anything that would not stop, and
 * covers creating the sandbox and reading its result.
 */
export const CODE_HARD_TIMEOUT_GRACE_MS = 2000;
