'use client';
/** The top bar's "Triggers" button and the drawer it opens (webhooks and schedules of this workflow). */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '@/components/ui/button';
import { TriggersPanel } from './triggers-panel';

export function TriggersButton({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="dark"
        size="sm"
        onClick={() => setOpen(true)}
        disabled={disabled}
        data-testid="triggers"
        title="Start this workflow from a webhook or on a schedule"
      >
        Triggers
      </Button>
      {/* Portalled out of the dark top bar, like the publish drawer. */}
      {open && createPortal(<TriggersPanel onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
