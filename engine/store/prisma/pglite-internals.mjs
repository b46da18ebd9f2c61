// Every use of PGlite's private API, in one place, for the version pinned in package.json (@electric-sql/pglite
// 0.5.17, exact). The embedded database thread (pglite-worker.mjs) holds PGlite's own query and transaction locks
// while it sends raw protocol messages, as PGlite's public query() does; those locks are not public API.
// checkInternals() fails loudly at start-up — and test/store/pglite-private-api-is-present.test.ts in CI — when an
// upgrade renames them, instead of letting queries race.
export const PINNED_PGLITE_VERSION = '0.5.17';

/** Throws when the PGlite instance lacks a private method this file relies on. */
export function checkInternals(pg) {
  for (const name of ['_runExclusiveQuery', '_runExclusiveTransaction']) {
    if (typeof pg[name] !== 'function')
      throw new Error(
        `PGlite has no ${name}(): the embedded database thread needs it (pinned @electric-sql/pglite ` +
          `${PINNED_PGLITE_VERSION}); re-check engine/store/prisma/pglite-internals.mjs after an upgrade`,
      );
  }
  if (!pg.serializers || typeof pg.serializers !== 'object')
    throw new Error('PGlite has no serializers map: re-check engine/store/prisma/pglite-internals.mjs');
}

/** Outside a transaction: wait for any open one (PGlite's transaction lock), then the query lock. */
export function exclusive(pg, inTx, fn) {
  return inTx ? pg._runExclusiveQuery(fn) : pg._runExclusiveTransaction(() => pg._runExclusiveQuery(fn));
}

/** PGlite's serializer for a parameter of type `oid`, as its query() uses; undefined for text-like types. */
export function serializerFor(pg, oid) {
  return pg.serializers[oid];
}
