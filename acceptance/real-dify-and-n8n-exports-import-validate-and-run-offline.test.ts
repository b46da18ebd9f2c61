/**
 * Guarantee: every real Dify and n8n export of the corpus (test/fixtures/import-corpus/, from public repositories)
 * imports on the production server; none is reported all mapped unless it validates; and of the files that need
 * nothing outside (no internet, SaaS account or source host) at least as many as measured run offline to `succeeded`
 * at an End node on the demo model, and are fully mapped (FLOORS: raise them when a change brings more). It prints
 * the totals (all files and the held-out ones apart) that docs/importing.md publishes, and whether issue 45's bar
 * (85 % run, 50 % fully mapped) is met: not yet (Dify code importing packages outside Python's standard library,
 * or parsing empty sample inputs; n8n flows whose sample input goes nowhere).
 *
 * One profile: importing is the same whatever the database or queue, and 148 runs are enough once.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { corpusFiles, pooled, totals, walk, type Outcome, type Totals } from './support/import-corpus';
import { ROOT } from './support/server';

const { api, is } = acceptance();

/** The bar issue 45 sets, on the files that need nothing outside (printed, not yet met). */
const BAR = { ran: 0.85, fullyMapped: 0.5 };
/**
 * What was measured on 2026-12-05 (embedded) after the Python Code node and the new node types: of the offline files,
 * how many ran (Dify 37, two below it to spare a Python cold start under load) and how many were fully mapped.
 */
const FLOORS = { dify: { ran: 35, fullyMapped: 22 }, n8n: { ran: 20, fullyMapped: 5 } };

function table(outcomes: Outcome[]): Record<string, Totals> {
  const rows: Record<string, Totals> = {};
  for (const format of ['dify', 'n8n'] as const) {
    const mine = outcomes.filter((o) => o.format === format);
    rows[`${format} all`] = totals(mine);
    rows[`${format} held-out`] = totals(mine.filter((o) => o.split === 'held-out'));
  }
  return rows;
}

describe('real Dify and n8n exports', () => {
  it.runIf(is('embedded'))(
    'import, validate and run offline',
    async () => {
      const files = corpusFiles();
      const outcomes = await pooled(files, 3, (f) => walk(api, f));
      for (const o of outcomes)
        console.log(
          [
            o.imported ? 'I' : '-',
            o.validated ? 'V' : '-',
            o.ran && o.ended ? 'R' : '-',
            (o.mapping ?? '').padEnd(12),
            (o.needs ?? 'offline').padEnd(8),
            o.split.padEnd(8),
            o.file,
            o.why ? `| ${o.why}` : '',
          ].join(' '),
        );
      const rows = table(outcomes);
      console.table(rows);
      const out = path.join(ROOT, 'test-logs');
      mkdirSync(out, { recursive: true });
      writeFileSync(
        path.join(out, 'import-corpus.json'),
        JSON.stringify({ measured: new Date().toISOString(), totals: rows, outcomes }, null, 2),
      );

      expect(outcomes.filter((o) => !o.imported).map((o) => `${o.file}: ${o.why}`)).toEqual([]);
      // "Mapped" is a claim about the result: it validates and runs.
      for (const o of outcomes.filter((x) => x.mapping === 'mapped'))
        expect(o.validated, `${o.file} is reported all mapped but does not validate: ${o.why}`).toBe(true);
      for (const format of ['dify', 'n8n'] as const) {
        const t = rows[`${format} all`];
        const met = t.ran / t.offline >= BAR.ran && t.fullyMapped / t.offline >= BAR.fullyMapped;
        console.log(
          `${format}: ran ${t.ran}/${t.offline}, fully mapped ${t.fullyMapped}/${t.offline} — issue 45's bar ` +
            `${met ? 'met' : 'not met'}`,
        );
        expect(t.ran, `${format}: offline files that ran`).toBeGreaterThanOrEqual(FLOORS[format].ran);
        expect(t.fullyMapped, `${format}: offline files fully mapped`).toBeGreaterThanOrEqual(
          FLOORS[format].fullyMapped,
        );
      }
    },
    30 * 60_000,
  );
});
