// Guarantees: the private PGlite API the embedded database thread relies on (engine/store/prisma/pglite-internals.mjs)
// exists in the installed PGlite, which is the exact version pinned in package.json; an upgrade that drops or
// renames it fails here, loudly, instead of letting the thread's queries race.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, it } from 'vitest';
import {
  checkInternals,
  exclusive,
  PINNED_PGLITE_VERSION,
  serializerFor,
} from '@/engine/store/prisma/pglite-internals.mjs';

it('package.json pins the PGlite version the internals were written for', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  expect(pkg.dependencies['@electric-sql/pglite']).toBe(PINNED_PGLITE_VERSION);
  const installed = JSON.parse(
    readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ).version;
  expect(installed).toBe(PINNED_PGLITE_VERSION);
});

it('the private locks and serializers exist and behave as the thread uses them', async () => {
  const pg = await PGlite.create();
  try {
    expect(() => checkInternals(pg)).not.toThrow();
    // int4's serializer turns a number into its text form.
    expect(serializerFor(pg, 23)?.(42)).toBe('42');
    // A query under the locks runs; two of them never overlap.
    let inside = 0;
    let overlapped = false;
    const hold = () =>
      exclusive(pg, false, async () => {
        inside++;
        if (inside > 1) overlapped = true;
        await new Promise((r) => setTimeout(r, 20));
        inside--;
        return 1;
      });
    expect(await Promise.all([hold(), hold(), hold()])).toEqual([1, 1, 1]);
    expect(overlapped).toBe(false);
    expect(() => checkInternals({ serializers: {} })).toThrow(/_runExclusiveQuery/);
  } finally {
    await pg.close();
  }
});
