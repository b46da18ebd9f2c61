'use client';
/**
 * A request started from a button or a form: `busy` while it runs (for the disabled state and "Saving…"), and its
 * error, cleared when it starts again, for the UI to show beside the field it names. `useFire` is the one request
 * two places make (a schedule's "Run now", a webhook's "Send test"): fire the trigger, keep the run it started.
 */
import { useState } from 'react';
import { triggersApi, type TestPayload, type TriggerView } from './triggers-api';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** Fires `trigger` now; `runId` is the run the last call started. */
export function useFire(trigger: Pick<TriggerView, 'workflowId' | 'id'>) {
  const { busy, error, run } = useAction();
  const [runId, setRunId] = useState<string | null>(null);
  const fire = (payload?: TestPayload) =>
    run(async () => setRunId((await triggersApi.fire(trigger.workflowId, trigger.id, payload)).runId));
  return { busy, error, runId, fire };
}
