/**
 * What the database's errors mean, recognised from the driver's and Prisma's codes (engine/store/app/errors.ts exports
 * these under store-neutral names).
 *
 * Whether an error means the database did not answer (refused, reset, shut down, timed out) rather than refused one
 * statement. Routes turn it into 503 DB_UNAVAILABLE with Retry-After (lib/http/errors.ts): the request may succeed
 * once the database is back, and nothing about it is the client's fault.
 *
 * What each driver says, seen with a PostgreSQL stopped under a running app (test/support/private-postgres.ts):
 * Prisma P1001 ("Can't reach database server") or P2010 wrapping the same message for raw queries, pg's
 * `ECONNREFUSED` on connect, SQLSTATE 57P01 / "Connection terminated unexpectedly" for a session the shutdown ends,
 * and 57P03 ("the database system is shutting down / starting up") around it.
 */

/** Prisma's codes for a server it cannot reach or a pool it cannot get a connection from. */
const UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Socket errors (pg passes them through as the error's `code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now). */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;
const MESSAGES = new RegExp(
  [
    "can't reach database server",
    'connection terminated',
    'terminating connection due to administrator command',
    'the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)',
    'timeout exceeded when trying to connect',
    'server closed the connection unexpectedly',
    'connect ECONNREFUSED',
  ].join('|'),
  'i',
);

/**
 * An outbound HTTP call that failed (fetch's "fetch failed" TypeError, its cause a socket error) is some other
 * service's outage, never the database's.
 */
const isFailedFetch = (e: { name?: unknown; message?: unknown }) =>
  e.name === 'TypeError' && e.message === 'fetch failed';

export function isDatabaseUnreachable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 6) return false;
  const { code, message, cause, errors } = e as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (isFailedFetch(e as { name?: unknown })) return false;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || NETWORK_CODES.has(code) || SQLSTATE.test(code)))
    return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((x) => isDatabaseUnreachable(x, depth + 1))) return true;
  return isDatabaseUnreachable(cause, depth + 1);
}

/** A write refused because a unique key (or the primary key) holds the value already: Prisma's P2002, SQL 23505. */
export function isUniqueViolation(e: unknown): boolean {
  return codeOf(e) === 'P2002' || codeOf(e) === '23505';
}

/** A write refused because a row it refers to does not exist (any more): Prisma's P2003, SQLSTATE 23503. */
export function isForeignKeyViolation(e: unknown): boolean {
  return codeOf(e) === 'P2003' || codeOf(e) === '23503';
}

/** An update or delete of a row that is not there: Prisma's P2025. */
export function isRecordMissing(e: unknown): boolean {
  return codeOf(e) === 'P2025';
}

function codeOf(e: unknown): unknown {
  return e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
}
