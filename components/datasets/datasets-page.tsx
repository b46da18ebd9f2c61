'use client';
/**
 * The datasets page (/datasets): the workspace's evaluation datasets, a CSV / JSONL upload that makes a new one, and
 * the rows of the chosen dataset at any of its versions — each row's inputs, expectation and tags.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { canEdit } from '@/components/api/auth-api';
import { errorMessage } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { TopBar } from '@/components/ui/top-bar';
import { datasetsApi, type Dataset, type DatasetSummary } from './datasets-api';

const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

function UploadForm({ onCreated }: { onCreated: (d: DatasetSummary) => void }) {
  const t = useTranslations('datasets.upload');
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3"
      data-testid="dataset-upload"
      onSubmit={(e) => {
        e.preventDefault();
        if (!file) return;
        setBusy(true);
        setError(null);
        datasetsApi
          .upload(file, name)
          .then((d) => {
            setFile(null);
            setName('');
            (e.target as HTMLFormElement).reset();
            onCreated(d);
          })
          .catch((err) => setError(errorMessage(err)))
          .finally(() => setBusy(false));
      }}
    >
      <div className="text-xs font-semibold uppercase text-zinc-500">{t('heading')}</div>
      <p className="text-[11px] text-zinc-500">{t('hint')}</p>
      <input
        type="file"
        accept=".csv,.tsv,.jsonl,.ndjson,.json,text/csv"
        aria-label={t('file')}
        data-testid="dataset-file"
        className="w-full text-xs"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      <input
        className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
        placeholder={t('name')}
        aria-label={t('name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        data-testid="dataset-name"
      />
      {error && (
        <p className="text-xs text-red-700" role="alert" data-testid="dataset-upload-error">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" size="sm" disabled={!file || busy} data-testid="dataset-upload-submit">
        {busy ? t('uploading') : t('submit')}
      </Button>
    </form>
  );
}

function RowsTable({ dataset }: { dataset: Dataset }) {
  const t = useTranslations('datasets.rows');
  if (!dataset.rows.length) return <p className="text-sm text-zinc-500">{t('empty')}</p>;
  return (
    <table className="w-full table-fixed border-collapse text-left text-[13px]" data-testid="dataset-rows">
      <thead>
        <tr className="text-[11px] uppercase text-zinc-500">
          <th className="w-12 py-1">#</th>
          <th className="py-1">{t('inputs')}</th>
          <th className="py-1">{t('expected')}</th>
          <th className="w-32 py-1">{t('tags')}</th>
        </tr>
      </thead>
      <tbody>
        {dataset.rows.map((row, i) => (
          <tr key={i} className="border-t border-zinc-100 align-top" data-testid="dataset-row">
            <td className="py-1.5 text-zinc-400">{i + 1}</td>
            <td className="py-1.5 pr-3">
              {Object.entries(row.inputs).map(([k, v]) => (
                <div key={k} className="break-words">
                  <span className="font-mono text-[11px] text-zinc-500">{k}</span> {show(v)}
                </div>
              ))}
            </td>
            <td className="break-words py-1.5 pr-3">{show(row.expected)}</td>
            <td className="py-1.5 text-[11px] text-zinc-600">{row.tags?.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DatasetsPage() {
  const t = useTranslations('datasets');
  const format = useFormatter();
  const auth = useAuth();
  const editable = canEdit(auth?.role);
  const [list, setList] = useState<DatasetSummary[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(
    (choose?: string) =>
      datasetsApi.list().then(
        (all) => {
          setList(all);
          setSelected((s) => choose ?? (s && all.some((d) => d.id === s) ? s : (all[0]?.id ?? null)));
        },
        (e) => setError(errorMessage(e)),
      ),
    [],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (!selected) return;
    let cancelled = false;
    datasetsApi.get(selected, version).then(
      (d) => !cancelled && setDataset(d),
      (e) => !cancelled && setError(errorMessage(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [selected, version]);

  const current = list?.find((d) => d.id === selected);
  const shown = dataset && dataset.id === selected ? dataset : null;
  return (
    <div className="flex min-h-screen flex-col bg-zinc-50">
      <TopBar>
        <span className="text-sm text-zinc-400">/</span>
        <span className="text-sm font-medium">{t('title')}</span>
      </TopBar>
      <main className="mx-auto grid w-full max-w-6xl grid-cols-[280px_1fr] gap-6 p-6">
        <aside className="space-y-3">
          <ul className="space-y-1" data-testid="dataset-list">
            {list?.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  onClick={() => {
                    setSelected(d.id);
                    setVersion(undefined);
                  }}
                  className={`w-full rounded px-2 py-1.5 text-left text-sm ${
                    d.id === selected ? 'bg-indigo-50 text-indigo-900' : 'hover:bg-zinc-100'
                  }`}
                  data-testid="dataset-item"
                  data-name={d.name}
                >
                  <div className="truncate font-medium">{d.name}</div>
                  <div className="text-[11px] text-zinc-500">
                    {t('summary', { rows: d.rowCount, version: d.version })}
                  </div>
                </button>
              </li>
            ))}
            {list?.length === 0 && <li className="text-sm text-zinc-500">{t('empty')}</li>}
          </ul>
          {editable && (
            <UploadForm
              onCreated={(d) => {
                setVersion(undefined);
                void refresh(d.id);
              }}
            />
          )}
        </aside>
        <section className="min-w-0 space-y-4">
          {error && (
            <p className="text-sm text-red-700" role="alert">
              {error}
            </p>
          )}
          {current && (
            <header className="flex flex-wrap items-center gap-3">
              <h1 className="text-xl font-semibold tracking-tight" data-testid="dataset-title">
                {current.name}
              </h1>
              <label className="text-xs text-zinc-600">
                {t('version')}{' '}
                <select
                  className="rounded border border-zinc-300 bg-white px-1 py-0.5"
                  data-testid="dataset-version"
                  value={version ?? current.version}
                  onChange={(e) => setVersion(Number(e.target.value))}
                >
                  {Array.from({ length: current.version }, (_, i) => current.version - i).map((v) => (
                    <option key={v} value={v}>
                      {v === current.version ? t('versionCurrent', { version: v }) : v}
                    </option>
                  ))}
                </select>
              </label>
              <span className="text-xs text-zinc-500">
                {t('updated', { date: format.dateTime(new Date(current.updatedAt), { dateStyle: 'medium' }) })}
              </span>
              {editable && (
                <Button
                  size="sm"
                  variant="danger"
                  data-testid="dataset-delete"
                  onClick={() => {
                    if (!confirm(t('confirmDelete', { name: current.name }))) return;
                    datasetsApi.remove(current.id).then(
                      () => refresh(),
                      (e) => setError(errorMessage(e)),
                    );
                  }}
                >
                  {t('delete')}
                </Button>
              )}
            </header>
          )}
          {current?.description && <p className="text-sm text-zinc-600">{current.description}</p>}
          {shown && <RowsTable dataset={shown} />}
          {!current && list !== null && <p className="text-sm text-zinc-500">{t('startHint')}</p>}
        </section>
      </main>
    </div>
  );
}
