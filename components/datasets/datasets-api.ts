/** The datasets API (app/api/datasets) as the datasets page and the editor's run view call it. */
import { ApiError, call } from '@/components/api/client';

export interface DatasetRow {
  inputs: Record<string, unknown>;
  expected?: unknown;
  tags?: string[];
}
export interface DatasetSummary {
  id: string;
  name: string;
  description: string;
  version: number;
  rowCount: number;
  createdAt: string;
  updatedAt: string;
}
export interface Dataset extends DatasetSummary {
  rows: DatasetRow[];
}

const at = (id: string) => `/api/datasets/${encodeURIComponent(id)}`;

export const datasetsApi = {
  list: () => call<DatasetSummary[]>('GET', '/api/datasets'),
  get: (id: string, version?: number) => call<Dataset>('GET', `${at(id)}${version ? `?version=${version}` : ''}`),
  remove: (id: string) => call<void>('DELETE', at(id)),
  /** A past run's inputs as a new row (its outputs as the expectation with `expectOutputs`) → the new summary. */
  addRun: (id: string, body: { runId: string; expectOutputs?: boolean; tags?: string[] }) =>
    call<DatasetSummary>('POST', `${at(id)}/rows`, body),
  /** A CSV or JSONL file as a new dataset (its name: `name`, else the file's). */
  upload: async (file: File, name?: string): Promise<DatasetSummary> => {
    const form = new FormData();
    form.append('file', file);
    if (name?.trim()) form.append('name', name.trim());
    const res = await fetch('/api/datasets', { method: 'POST', body: form, cache: 'no-store' });
    const body = await res.json().catch(() => undefined);
    if (!res.ok) {
      const e = body?.error;
      throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText, e?.path);
    }
    return body as DatasetSummary;
  },
};
