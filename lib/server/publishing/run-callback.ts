/**
 * Completion callbacks of published runs: `callbackUrl` gets one POST with the run's outcome when the run ends.
 * The URL is checked by the SSRF guard when the run is requested (400 at once, not a silent drop later) and the POST
 * itself goes through the guarded fetch, which re-checks DNS and every redirect. Best effort: 3 attempts, then logged.
 * Every attempt is signed afresh (its own timestamp, the workflow's current secret: callback-signature.ts,
 * callback-secret.ts), so a retry is not refused as stale and a rotation applies to the next attempt. A callback
 * whose secret cannot be read is not sent unsigned: it is dropped and logged (without the secret).
 */
import { PaiError } from '@/engine/errors';
import { checkUrl, createGuardedFetch, parseAllowlist, type GuardedFetch } from '@/engine/net/ssrf-guard';
import type { App } from '../app-types';
import { callbackSecretOf } from './callback-secret';
import { callbackSignatureHeaders } from './callback-signature';
import { waitForRunToSettle } from '../runs/run-waiter';

const ATTEMPT_DELAYS_MS = [0, 2_000, 8_000];
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A run paused on human input may be answered much later; stop waiting for it after this. */
const MAX_WAIT_MS = 24 * 3600_000;

const fetchers = new WeakMap<App, GuardedFetch>();
const guardedFetch = (app: App) => {
  let f = fetchers.get(app);
  if (!f) fetchers.set(app, (f = createGuardedFetch({ allowlist: parseAllowlist(app.config.httpAllowlist) })));
  return f;
};

export async function checkCallbackUrl(app: App, url: string): Promise<void> {
  try {
    await checkUrl(url, { allowlist: parseAllowlist(app.config.httpAllowlist) });
  } catch (e) {
    const pe = e instanceof PaiError ? e : new PaiError('INVALID_CALLBACK_URL', 'the callback URL cannot be used');
    throw new PaiError(pe.code, `callbackUrl: ${pe.message}`, { path: 'callbackUrl' });
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

/** Fire and forget: POSTs the outcome to `url` once the run ends. */
export function deliverOnCompletion(
  app: App,
  runId: string,
  url: string,
  info: { slug: string; version: number },
): void {
  void (async () => {
    const run = await waitForRunToSettle(app, runId, { timeoutMs: MAX_WAIT_MS, untilEnded: true, pollMs: 2_000 });
    if (!run || !['succeeded', 'failed', 'cancelled', 'interrupted'].includes(run.status)) return;
    const body = JSON.stringify({
      runId: run.id,
      workflowId: run.workflowId,
      slug: info.slug,
      version: info.version,
      status: run.status,
      outputs: run.outputs,
      error: run.error,
      finishedAt: run.finishedAt,
    });
    const host = new URL(url).host;
    let why = '';
    for (const delay of ATTEMPT_DELAYS_MS) {
      if (delay) await sleep(delay);
      let secret: string;
      try {
        secret = (await callbackSecretOf(app, run.workflowId)).secret;
      } catch (e) {
        const code = e instanceof PaiError ? e.code : 'INTERNAL';
        console.warn(`[paiflow] callback for run ${run.id} to ${host} not sent: no signing secret (${code})`);
        return;
      }
      try {
        const res = await guardedFetch(app)(url, {
          method: 'POST',
          body,
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'PaiFlow-Callback/1',
            'x-paiflow-run-id': run.id,
            ...callbackSignatureHeaders(secret, body),
          },
        });
        await res.body?.cancel().catch(() => {});
        if (res.ok) return;
        why = `: HTTP ${res.status}`;
        if (res.status < 500 && res.status !== 429) break; // the receiver refuses it: retrying will not help
      } catch (e) {
        // Blocked by the guard (e.g. DNS now points inward): its message says how to allow the host.
        why = e instanceof PaiError ? `: ${e.code}: ${e.message}` : '';
        if (e instanceof PaiError && !e.retryable) break;
      }
    }
    console.warn(`[paiflow] callback for run ${run.id} could not be delivered to ${host}${why}`);
  })().catch(() => {});
}
