'use client';
/** The top bar's "Triggers" button and the drawer it opens (webhooks and schedules of this workflow). */
import { DrawerButton } from '@/components/ui/drawer';
import { TriggersPanel } from './triggers-panel';

export function TriggersButton({ disabled }: { disabled?: boolean }) {
  return (
    <DrawerButton
      label="Triggers"
      title="Start this workflow from a webhook or on a schedule"
      testId="triggers"
      disabled={disabled}
      drawer={(close) => <TriggersPanel onClose={close} />}
    />
  );
}
