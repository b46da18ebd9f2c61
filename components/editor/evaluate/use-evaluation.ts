/**
 * One evaluation as it goes: read at once, then about every second while it is queued or running, and no more once
 * it has ended (or the tab closes); `onEnded` hears of it ended (the list beside it may still say running).
 * `cancel` asks the server to stop it and shows the answer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/components/api/client';
import { evaluateApi, isActive, type EvaluationView } from './evaluate-api';

const POLL_MS = 1000;

export function useEvaluation(id: string | null, onEnded?: (ev: EvaluationView) => void) {
  const [state, setState] = useState<{ id: string | null; evaluation: EvaluationView | null; error: string | null }>({
    id: null,
    evaluation: null,
    error: null,
  });

  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    if (!id) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const ev = await evaluateApi.get(id, abort.signal);
        if (abort.signal.aborted) return;
        setState({ id, evaluation: ev, error: null });
        if (isActive(ev.status)) timer = setTimeout(read, POLL_MS);
        else ended.current?.(ev);
      } catch (e) {
        if (abort.signal.aborted) return;
        setState((s) => ({ ...s, id, error: errorMessage(e) }));
        timer = setTimeout(read, POLL_MS * 3);
      }
    };
    void read();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [id]);

  const cancel = useCallback(async () => {
    if (!id) return;
    try {
      const ev = await evaluateApi.cancel(id);
      setState({ id, evaluation: ev, error: null });
    } catch (e) {
      setState((s) => ({ ...s, error: errorMessage(e) }));
    }
  }, [id]);

  // A result of another evaluation is never shown while this one loads.
  const current = state.id === id ? state : { evaluation: null, error: null };
  return { evaluation: current.evaluation, error: current.error, cancel };
}
