'use client';
/**
 * Which browser origins may call the endpoint: the server default (CORS_ORIGINS) or a custom list for this workflow.
 */
import { useState } from 'react';
import { ApiError } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { publishApi, type PublishStatus } from './publish-api';
import { InlineError, Section } from './publish-ui';

function describeOrigins(origins: '*' | string[] | undefined): string {
  if (origins === undefined) return 'as configured';
  if (origins === '*' || origins.includes('*')) return 'any origin, *';
  if (!origins.length) return 'no browser origin';
  return origins.join(', ');
}

/** One origin per line; blank lines and surrounding spaces do not count. */
export const parseOrigins = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** A 400 for `corsOrigins.1` (or `corsOrigins[1]`) names the origin it is about. */
function withOrigin(e: unknown, sent: string[]): unknown {
  if (!(e instanceof ApiError)) return e;
  const m = /^corsOrigins(?:\.(\d+)|\[(\d+)\])$/.exec(e.path ?? '');
  const origin = m ? sent[Number(m[1] ?? m[2])] : undefined;
  return origin === undefined ? e : new ApiError(e.status, e.code, `“${origin}”: ${e.message}`, e.path);
}

/** Keyed by the saved value in the parent, so a save (or a reload) resets the form to what is stored. */
export function CorsSection({
  workflowId,
  status,
  onSaved,
}: {
  workflowId: string;
  status: PublishStatus;
  onSaved: (s: PublishStatus) => void;
}) {
  const saved = status.corsOrigins ?? null;
  const [mode, setMode] = useState<'default' | 'custom'>(saved === null ? 'default' : 'custom');
  const [text, setText] = useState((saved ?? []).join('\n'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const value = mode === 'default' ? null : parseOrigins(text);
  const dirty = JSON.stringify(value) !== JSON.stringify(saved);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await publishApi.setCors(workflowId, value));
    } catch (e) {
      setError(withOrigin(e, value ?? []));
    } finally {
      setBusy(false);
    }
  };

  const radio = (m: 'default' | 'custom', label: string, testId: string) => (
    <label className="flex cursor-pointer items-center gap-2 text-[12px] text-zinc-800">
      <input
        type="radio"
        name="cors-mode"
        value={m}
        checked={mode === m}
        data-testid={testId}
        className="accent-indigo-600"
        onChange={() => {
          setMode(m);
          setError(null);
        }}
      />
      {label}
    </label>
  );

  return (
    <Section
      title="CORS"
      testId="publish-cors-section"
      aside={
        <span
          className="text-[11px] text-zinc-400"
          data-testid="cors-saved"
          data-mode={saved === null ? 'default' : 'custom'}
        >
          {saved === null ? 'server default' : 'custom'}
        </span>
      }
    >
      <p className="mb-2 text-[12px] text-zinc-600">
        Which web pages may call the endpoint from a browser. Servers and scripts are not affected.
      </p>
      <div className="space-y-1.5">
        {radio('default', `Server default (${describeOrigins(status.corsDefault)})`, 'cors-mode-default')}
        {radio('custom', 'Custom for this workflow', 'cors-mode-custom')}
      </div>
      {mode === 'custom' && (
        <div className="mt-2 pl-5">
          <textarea
            data-testid="cors-origins"
            aria-label="Allowed origins, one per line"
            rows={4}
            value={text}
            spellCheck={false}
            placeholder={'https://app.example.com\nhttp://localhost:5173'}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            className={
              'w-full rounded-md border px-2 py-1.5 font-mono text-[12px] outline-none focus:ring-2 ' +
              (error
                ? 'border-red-400 focus:ring-red-100'
                : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100')
            }
          />
          <p className="text-[11px] text-zinc-500">
            One origin per line (scheme://host[:port]); <code className="font-mono">*</code> allows any origin; an empty
            list allows no browser origin.
          </p>
        </div>
      )}
      <InlineError error={error} testId="cors-error" />
      <div className="mt-2 flex items-center gap-2">
        <Button
          size="sm"
          variant="primary"
          data-testid="cors-save"
          disabled={busy || !dirty}
          onClick={() => void save()}
        >
          {busy ? 'Saving…' : 'Save'}
        </Button>
        {dirty && <span className="text-[11px] text-amber-700">Unsaved changes</span>}
      </div>
    </Section>
  );
}
