'use client';
/** The top bar's "Triggers" button and the drawer it opens (webhooks and schedules of this workflow). */
import { useTranslations } from 'next-intl';
import { DrawerButton } from '@/components/ui/drawer';
import { TriggersPanel } from './triggers-panel';

export function TriggersButton({ disabled }: { disabled?: boolean }) {
  const t = useTranslations('triggers.button');
  return (
    <DrawerButton
      label={t('label')}
      title={t('title')}
      testId="triggers"
      disabled={disabled}
      drawer={(close) => <TriggersPanel onClose={close} />}
    />
  );
}
