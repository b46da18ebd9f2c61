'use client';
/** The top bar's "Publish" button and the drawer it opens. */
import { DrawerButton } from '@/components/ui/drawer';
import { PublishPanel } from './publish-panel';

export function PublishButton({ disabled }: { disabled?: boolean }) {
  return (
    <DrawerButton
      label="Publish"
      title="Publish as an HTTP API: versions, API keys, CORS"
      testId="publish"
      disabled={disabled}
      drawer={(close) => <PublishPanel onClose={close} />}
    />
  );
}
