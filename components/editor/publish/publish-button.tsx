'use client';
/** The top bar's "Publish" button and the drawer it opens. */
import { useTranslations } from 'next-intl';
import { DrawerButton } from '@/components/ui/drawer';
import { PublishPanel } from './publish-panel';

export function PublishButton({ disabled }: { disabled?: boolean }) {
  const t = useTranslations('publish.button');
  return (
    <DrawerButton
      label={t('label')}
      title={t('title')}
      testId="publish"
      disabled={disabled}
      drawer={(close) => <PublishPanel onClose={close} />}
    />
  );
}
