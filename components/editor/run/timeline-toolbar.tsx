/** The Timeline tab's toolbar: the span count and run length, collapse / expand all, and zoom out / in / fit. */
import { useTranslations } from 'next-intl';
import { formatDuration } from '@/components/ui/status';

export function TimelineToolbar({
  spans,
  extent,
  fitting,
  onCollapseAll,
  onExpandAll,
  onZoom,
  onFit,
}: {
  spans: number;
  extent: [number, number] | null;
  fitting: boolean;
  onCollapseAll: () => void;
  onExpandAll: () => void;
  onZoom: (factor: number) => void;
  onFit: () => void;
}) {
  const t = useTranslations('run.timeline');
  return (
    <div className="flex h-7 shrink-0 items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 text-[11px]">
      <span className="font-medium text-zinc-700" data-testid="timeline-summary">
        {t('spans', { count: spans })}
      </span>
      {extent && <span className="text-zinc-500">{formatDuration(extent[1] - extent[0])}</span>}
      <span className="truncate text-zinc-400">{t('hint')}</span>
      <span className="flex-1" />
      <ToolButton onClick={onCollapseAll} testId="timeline-collapse-all">
        {t('collapseAll')}
      </ToolButton>
      <ToolButton onClick={onExpandAll} testId="timeline-expand-all">
        {t('expandAll')}
      </ToolButton>
      <span className="mx-1 h-4 w-px bg-zinc-200" />
      <ToolButton onClick={() => onZoom(1 / 1.6)} testId="timeline-zoom-out" title={t('zoomOut')}>
        −
      </ToolButton>
      <ToolButton onClick={() => onZoom(1.6)} testId="timeline-zoom-in" title={t('zoomIn')}>
        +
      </ToolButton>
      <ToolButton onClick={onFit} testId="timeline-fit" title={t('fitTitle')} active={fitting}>
        {t('fit')}
      </ToolButton>
    </div>
  );
}

function ToolButton({
  children,
  onClick,
  testId,
  title,
  active,
}: {
  children: React.ReactNode;
  onClick: () => void;
  testId: string;
  title?: string;
  active?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      title={title}
      className={
        'h-5 min-w-5 rounded px-1.5 text-[11px] font-medium ' +
        (active ? 'bg-zinc-800 text-white' : 'text-zinc-600 hover:bg-zinc-200')
      }
    >
      {children}
    </button>
  );
}
