/**
 * The import corpus (test/fixtures/import-corpus/: real Dify and n8n exports, manifest.json) walked the way a user
 * would: import the file, validate the workflow, run it with inputs a person would type, and read the run. The
 * outcome of each file, and the totals docs/importing.md publishes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from './client';
import { ROOT } from './server';

export const CORPUS = path.join(ROOT, 'test/fixtures/import-corpus');

export type Needs = 'internet' | 'saas' | 'host';

export interface CorpusFile {
  file: string;
  split: 'tuning' | 'held-out';
  stratum: 'random' | 'offline-capable';
  licence: string;
  needs?: { kind: Needs; why: string };
}

export function corpusFiles(): CorpusFile[] {
  return (JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: CorpusFile[] }).files;
}

export interface Outcome {
  file: string;
  format: 'dify' | 'n8n';
  split: CorpusFile['split'];
  needs?: Needs;
  imported: boolean;
  validated: boolean;
  /** The run ended `succeeded`. */
  ran: boolean;
  /** …and an End node gave its outputs (a run that ends nowhere says nothing). */
  ended: boolean;
  mapping?: 'mapped' | 'approximated' | 'dropped';
  /** Why it did not import, validate or run: the first error's code and message. */
  why?: string;
}

interface StartInput {
  name: string;
  type: string;
  required?: boolean;
  default?: unknown;
  description?: string;
}

const SAMPLE_TEXT = 'Please summarise: PaiFlow runs imported workflows offline. 请用一句话总结这段文字。';

/**
 * What a person would type into each required input (the first option of a choice), and into an object input (a
 * webhook's body) the fields the workflow reads of it (`{{inputs.body.query}}`), as a caller of its API would.
 */
export function sampleInputs(inputs: StartInput[], graph: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const text = JSON.stringify(graph);
  for (const i of inputs) {
    if (i.type === 'object') {
      const fields = [...text.matchAll(new RegExp(`inputs\\.${i.name}\\.([A-Za-z_][A-Za-z0-9_]*)`, 'g'))].map(
        (m) => m[1],
      );
      if (fields.length) {
        out[i.name] = Object.fromEntries(fields.map((f) => [f, SAMPLE_TEXT]));
        continue;
      }
    }
    if (!i.required || i.default !== undefined) continue;
    const option = /one of: ([^,]+)/.exec(i.description ?? '')?.[1]?.trim();
    out[i.name] =
      i.type === 'number'
        ? 3
        : i.type === 'boolean'
          ? true
          : i.type === 'array'
            ? ['apple', 'banana']
            : i.type === 'object'
              ? { text: SAMPLE_TEXT }
              : (option ?? SAMPLE_TEXT);
  }
  return out;
}

const firstError = (body: any): string => {
  const e = body?.error ?? body?.errors?.[0] ?? body?.problems?.[0] ?? body;
  return `${e?.code ?? ''} ${e?.message ?? JSON.stringify(e)}`.trim().slice(0, 300);
};

/** Polls the run until it settles; a run still going after `timeoutMs` is cancelled and reported. */
async function settle(api: Client, runId: string, timeoutMs: number): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await api.get(`/api/runs/${runId}`)).body;
    if (['succeeded', 'failed', 'cancelled', 'interrupted', 'waiting'].includes(run.status)) return run;
    if (Date.now() > deadline) {
      await api.post(`/api/runs/${runId}/cancel`);
      return {
        ...run,
        status: 'timeout',
        error: { code: 'TIMEOUT', message: `still ${run.status} after ${timeoutMs} ms` },
      };
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function walk(api: Client, f: CorpusFile): Promise<Outcome> {
  const format = f.file.startsWith('dify/') ? 'dify' : 'n8n';
  const out: Outcome = {
    file: f.file,
    format,
    split: f.split,
    ...(f.needs ? { needs: f.needs.kind } : {}),
    imported: false,
    validated: false,
    ran: false,
    ended: false,
  };
  const content = readFileSync(path.join(CORPUS, f.file), 'utf8');
  const imp = await api.post('/api/workflows/import', { format, content });
  if (imp.status !== 201) return { ...out, why: `import ${imp.status}: ${firstError(imp.body)}` };
  out.imported = true;
  const wf = imp.body;
  const report = wf.importReport;
  out.mapping = report.dropped.length ? 'dropped' : report.approximated.length ? 'approximated' : 'mapped';
  const v = await api.post(`/api/workflows/${wf.id}/validate`, {});
  out.validated = v.status === 200 && v.body.ok === true && wf.problems.length === 0;
  if (!out.validated) out.why = `validate: ${firstError(wf.problems.length ? wf : v.body)}`;
  const start = wf.graph.nodes.find((n: any) => n.type === 'start');
  const started = await api.post(`/api/workflows/${wf.id}/runs`, {
    inputs: sampleInputs(start?.data.config.inputs ?? [], wf.graph),
  });
  if (started.status !== 202) {
    out.why ??= `run ${started.status}: ${firstError(started.body)}`;
    return out;
  }
  const run = await settle(api, started.body.runId, 90_000);
  out.ran = run.status === 'succeeded';
  out.ended = out.ran && run.nodes.some((n: any) => n.type === 'end' && n.status === 'succeeded');
  if (!out.ran) out.why ??= `run ${run.status}: ${firstError(run)}`;
  else if (!out.ended) out.why ??= 'run succeeded without reaching an End node';
  return out;
}

export interface Totals {
  files: number;
  imported: number;
  validated: number;
  needsInternet: number;
  needsSaas: number;
  needsHost: number;
  /** Files that need nothing outside: the bar's denominator. */
  offline: number;
  /** Of those: ran to succeeded and reached an End node. */
  ran: number;
  /** Of those: every node mapped, the workflow validates and runs. */
  fullyMapped: number;
  approximated: number;
  withDropped: number;
}

export function totals(outcomes: Outcome[]): Totals {
  const offline = outcomes.filter((o) => !o.needs);
  return {
    files: outcomes.length,
    imported: outcomes.filter((o) => o.imported).length,
    validated: outcomes.filter((o) => o.validated).length,
    needsInternet: outcomes.filter((o) => o.needs === 'internet').length,
    needsSaas: outcomes.filter((o) => o.needs === 'saas').length,
    needsHost: outcomes.filter((o) => o.needs === 'host').length,
    offline: offline.length,
    ran: offline.filter((o) => o.ran && o.ended).length,
    fullyMapped: offline.filter((o) => o.mapping === 'mapped' && o.validated && o.ran && o.ended).length,
    approximated: outcomes.filter((o) => o.mapping === 'approximated').length,
    withDropped: outcomes.filter((o) => o.mapping === 'dropped').length,
  };
}

/** Runs `fn` over `items`, `concurrency` at a time, keeping their order. */
export async function pooled<T, R>(items: T[], concurrency: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}
