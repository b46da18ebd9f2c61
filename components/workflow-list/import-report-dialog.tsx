'use client';
/**
 * What a Dify or n8n import made of each node (POST /api/workflows/import's `importReport`): how many were mapped,
 * approximated and dropped, and for each the reason in the reader's language; and a button to open the workflow.
 */
import { useLocale, useTranslations } from 'next-intl';
import type { ImportReport, ImportReportEntry } from './import-file';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';

/** What needs a look first. */
const OUTCOMES = ['approximated', 'dropped', 'mapped'] as const;

const TONE: Record<(typeof OUTCOMES)[number], string> = {
  mapped: 'bg-emerald-50 text-emerald-800 border-emerald-200',
  approximated: 'bg-amber-50 text-amber-800 border-amber-200',
  dropped: 'bg-zinc-100 text-zinc-700 border-zinc-200',
};

export function ImportReportDialog({
  name,
  report,
  problems,
  onOpen,
  onClose,
}: {
  name: string;
  report: ImportReport;
  problems: number;
  onOpen: () => void;
  onClose: () => void;
}) {
  const t = useTranslations('workflowList.importReport');
  const zh = useLocale().startsWith('zh');
  const why = (e: ImportReportEntry) => (zh ? e.whyZh : e.why);
  return (
    <Modal
      title={t('title', { name, format: report.format === 'dify' ? 'Dify' : 'n8n' })}
      onClose={onClose}
      testId="import-report"
      wide
      footer={
        <>
          <Button onClick={onClose}>{t('close')}</Button>
          <Button variant="primary" onClick={onOpen} data-testid="open-imported">
            {t('open')}
          </Button>
        </>
      }
    >
      <p className="mb-3 text-zinc-600" data-testid="import-report-summary">
        {t('summary', {
          mapped: report.mapped.length,
          approximated: report.approximated.length,
          dropped: report.dropped.length,
        })}
        {problems > 0 && <span className="ml-1 text-amber-700">{t('problems', { count: problems })}</span>}
      </p>
      {OUTCOMES.filter((o) => report[o].length).map((outcome) => (
        <section key={outcome} className="mb-4" data-testid={`import-${outcome}`}>
          <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            {t(outcome, { count: report[outcome].length })}
          </h3>
          <ul className="space-y-1.5">
            {report[outcome].map((e) => (
              <li key={e.id} className={`rounded-md border px-3 py-2 ${TONE[outcome]}`} data-testid="import-entry">
                <div className="font-medium">
                  {e.title}{' '}
                  <span className="font-mono text-[11px] font-normal opacity-70">
                    {e.type}
                    {e.nodeIds.length ? ` → ${e.nodeIds.join(', ')}` : ''}
                  </span>
                </div>
                <div className="mt-0.5 text-[13px] leading-snug">{why(e)}</div>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Modal>
  );
}
