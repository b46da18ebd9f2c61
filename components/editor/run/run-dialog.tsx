'use client';
/** The run form, generated from the inputs the start node declares (with none, Run starts at once: start-test-run). */
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { useEditorContext } from '../editor-context';
import { declaredInputs, isInvalidGraph, startTestRun, type InputDecl } from './start-test-run';

function initial(d: InputDecl): string | boolean {
  if (d.type === 'boolean') return d.default === true;
  if (d.default === undefined) return '';
  return typeof d.default === 'string' ? d.default : JSON.stringify(d.default, null, 2);
}

export function RunDialog({
  onClose,
  onStarted,
  onInvalid,
}: {
  onClose: () => void;
  onStarted: (runId: string) => void;
  onInvalid: () => void;
}) {
  const { editor } = useEditorContext();
  const t = useTranslations('run.dialog');
  const [decls] = useState(() => declaredInputs(editor));
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(decls.map((d) => [d.name, initial(d)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const inputs: Record<string, unknown> = {};
    const errs: Record<string, string> = {};
    for (const d of decls) {
      const v = values[d.name];
      const type = d.type ?? 'string';
      if (type === 'boolean') {
        inputs[d.name] = v === true;
        continue;
      }
      const text = String(v ?? '');
      if (text === '') {
        if (d.required !== false && d.default === undefined) errs[d.name] = t('required');
        continue;
      }
      if (type === 'string') inputs[d.name] = text;
      else if (type === 'number') {
        const n = Number(text);
        if (!Number.isFinite(n)) errs[d.name] = t('enterNumber');
        else inputs[d.name] = n;
      } else {
        try {
          const parsed = JSON.parse(text);
          if (
            type === 'array'
              ? !Array.isArray(parsed)
              : typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)
          )
            errs[d.name] = t('enterJsonType', { type });
          else inputs[d.name] = parsed;
        } catch {
          errs[d.name] = t('enterValidJson', { type });
        }
      }
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const runId = await startTestRun(editor, inputs);
      if (!runId) {
        setBusy(false);
        return;
      }
      onStarted(runId);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.path?.startsWith('inputs.')) {
        setErrors({ [err.path.slice('inputs.'.length)]: err.message });
        return;
      }
      toast('error', t('startFailed'), errorMessage(err));
      if (isInvalidGraph(err)) {
        onInvalid();
        onClose();
      }
    }
  };

  return (
    <Modal
      title={t('title')}
      onClose={onClose}
      testId="run-dialog"
      wide
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="run" type="submit" form="run-form" disabled={busy} data-testid="run-submit">
            {busy ? t('starting') : t('run')}
          </Button>
        </>
      }
    >
      <form id="run-form" onSubmit={submit} className="space-y-3">
        {decls.length === 0 && <p className="text-zinc-500">{t('noInputs')}</p>}
        {decls.map((d) => {
          const type = d.type ?? 'string';
          const id = `run-input-${d.name}`;
          const err = errors[d.name];
          const cls =
            'w-full rounded-md border px-2.5 py-1.5 text-[13px] outline-none focus:ring-2 ' +
            (err
              ? 'border-red-400 focus:ring-red-100'
              : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100');
          return (
            <div key={d.name}>
              <label htmlFor={id} className="mb-1 block text-[12px] font-medium text-zinc-700">
                <span className="font-mono">{d.name}</span>
                {d.required !== false && d.default === undefined && <span className="ml-0.5 text-red-500">*</span>}
                <span className="ml-2 font-normal text-zinc-400">
                  {type}
                  {d.description ? ` — ${d.description}` : ''}
                </span>
              </label>
              {type === 'boolean' ? (
                <input
                  id={id}
                  type="checkbox"
                  checked={values[d.name] === true}
                  data-testid={id}
                  onChange={(e) => setValues((v) => ({ ...v, [d.name]: e.target.checked }))}
                  className="h-4 w-4 accent-indigo-600"
                />
              ) : type === 'number' ? (
                <input
                  id={id}
                  type="number"
                  step="any"
                  value={String(values[d.name] ?? '')}
                  data-testid={id}
                  className={`${cls} h-8`}
                  onChange={(e) => setValues((v) => ({ ...v, [d.name]: e.target.value }))}
                />
              ) : (
                <textarea
                  id={id}
                  rows={type === 'string' ? 2 : 4}
                  value={String(values[d.name] ?? '')}
                  data-testid={id}
                  className={`${cls} ${type === 'string' ? '' : 'font-mono text-[12px]'}`}
                  placeholder={type === 'string' ? '' : type === 'array' ? '[ ]' : '{ }'}
                  onChange={(e) => setValues((v) => ({ ...v, [d.name]: e.target.value }))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && (e.metaKey || e.ctrlKey))
                      (e.currentTarget.form as HTMLFormElement).requestSubmit();
                  }}
                />
              )}
              {err && (
                <p className="mt-1 text-[11px] text-red-600" data-testid="run-input-error">
                  {err}
                </p>
              )}
            </div>
          );
        })}
      </form>
    </Modal>
  );
}
