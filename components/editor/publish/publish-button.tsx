'use client';
/** The top bar's "Publish" button and the drawer it opens. */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '@/components/ui/button';
import { PublishPanel } from './publish-panel';

export function PublishButton({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="dark"
        size="sm"
        onClick={() => setOpen(true)}
        disabled={disabled}
        data-testid="publish"
        title="Publish as an HTTP API: versions, API keys, CORS"
      >
        Publish
      </Button>
      {/* Portalled out of the dark top bar, so the drawer inherits neither its colours nor its stacking. */}
      {open && createPortal(<PublishPanel onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
