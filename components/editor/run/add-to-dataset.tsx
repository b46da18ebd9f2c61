'use client';
/**
 * "Add to dataset" for a finished run: its inputs become a new row of a dataset of the workspace, and — ticked, for
 * a run that succeeded — its outputs the row's expectation (POST /api/datasets/:id/rows { runId, expectOutputs }).
 * The answer says how many rows the dataset has now, or why it refused.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { datasetsApi, type DatasetSummary } from '@/components/datasets/datasets-api';
import { Button } from '@/components/ui/button';

export function AddToDatasetBox({
  runId,
  succeeded,
  onClose,
}: {
  runId: string;
  succeeded: boolean;
  onClose: () => void;
}) {
  const t = useTranslations('evaluate.addToDataset');
  const [datasets, setDatasets] = useState<DatasetSummary[] | null>(null);
  const [picked, setPicked] = useState('');
  const [expect, setExpect] = useState(succeeded);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ added?: DatasetSummary; error?: string } | null>(null);

  useEffect(() => {
    let live = true;
    datasetsApi.list().then(
      (list) => live && setDatasets(list),
      (e) => live && setResult({ error: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, []);

  const datasetId = picked || datasets?.[0]?.id || '';
  const add = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ added: await datasetsApi.addRun(datasetId, { runId, expectOutputs: expect && succeeded }) });
    } catch (e) {
      setResult({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-indigo-100 bg-indigo-50/50 px-3 py-1.5 text-[12px]"
      data-testid="add-to-dataset"
    >
      <span className="font-medium text-zinc-700">{t('heading')}</span>
      {datasets?.length === 0 ? (
        <span className="text-zinc-600">
          {t.rich('none', {
            link: (c) => (
              <a href="/datasets" className="font-medium text-indigo-700 hover:underline">
                {c}
              </a>
            ),
          })}
        </span>
      ) : (
        <>
          <select
            aria-label={t('dataset')}
            className="h-7 max-w-64 rounded border border-zinc-300 bg-white px-1.5 text-[12px]"
            value={datasetId}
            onChange={(e) => setPicked(e.target.value)}
            data-testid="add-to-dataset-select"
          >
            {(datasets ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
          <label
            className={`flex items-center gap-1 ${succeeded ? 'text-zinc-700' : 'text-zinc-400'}`}
            title={succeeded ? undefined : t('expectOutputsOff')}
          >
            <input
              type="checkbox"
              checked={expect && succeeded}
              disabled={!succeeded}
              onChange={(e) => setExpect(e.target.checked)}
              data-testid="add-to-dataset-expect"
            />
            {t('expectOutputs')}
          </label>
          <Button
            size="sm"
            variant="primary"
            disabled={!datasetId || busy}
            onClick={() => void add()}
            data-testid="add-to-dataset-submit"
          >
            {busy ? t('adding') : t('add')}
          </Button>
        </>
      )}
      {result?.added && (
        <span className="text-emerald-700" role="status" data-testid="add-to-dataset-done">
          {t('added', { name: result.added.name, count: result.added.rowCount, version: result.added.version })}
        </span>
      )}
      {result?.error && (
        <span className="text-red-600" role="alert" data-testid="add-to-dataset-error">
          {result.error}
        </span>
      )}
      <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose} data-testid="add-to-dataset-close">
        {t('close')}
      </Button>
    </div>
  );
}
