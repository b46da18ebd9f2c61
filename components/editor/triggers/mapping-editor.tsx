'use client';
/**
 * A webhook's mapping: one template per Start input over the request (`{{body.x}}`, `{{query.y}}`,
 * `{{headers.z}}`), each with the API's error for that input beside it.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '../publish/publish-ui';
import { fieldError, type MappingRow } from './trigger-helpers';
import { FieldError, labelClass } from './form-controls';

export function MappingEditor({
  rows,
  onRows,
  error,
}: {
  rows: MappingRow[];
  onRows: (rows: MappingRow[]) => void;
  error: unknown;
}) {
  const msg = useTranslations('triggers.mapping');
  const code = (c: ReactNode) => <code className="font-mono">{c}</code>;
  const set = (input: string, template: string) =>
    onRows(rows.map((r) => (r.input === input ? { ...r, template } : r)));
  const rowsHaveError = rows.some((r) => fieldError(error, `mapping.${r.input}`) !== null);
  return (
    <fieldset className="mb-3" data-testid="webhook-mapping">
      <legend className={labelClass}>{msg('legend')}</legend>
      <p className="mb-1.5 text-[11px] text-zinc-500">
        {msg.rich('help', { body: '{{body.x}}', query: '{{query.y}}', headers: '{{headers.z}}', code })}
      </p>
      {rows.length === 0 ? (
        <p className="text-[12px] text-zinc-500" data-testid="webhook-mapping-empty">
          {msg('empty')}
        </p>
      ) : (
        <div className="space-y-1.5">
          {rows.map((r) => {
            const message = fieldError(error, `mapping.${r.input}`);
            return (
              <div key={r.input} data-testid="webhook-mapping-row" data-input={r.input}>
                <div className="flex items-center gap-2">
                  <span
                    className={
                      'w-32 shrink-0 truncate font-mono text-[11px] ' +
                      (r.declared ? 'text-zinc-800' : 'text-zinc-400 line-through')
                    }
                    title={r.declared ? r.input : msg('undeclared', { input: r.input })}
                  >
                    {r.input}
                  </span>
                  <input
                    aria-label={msg('templateAria', { input: r.input })}
                    aria-invalid={!!message || undefined}
                    className={`${inputClass} font-mono ${message ? 'border-red-400' : ''}`}
                    value={r.template}
                    placeholder={msg('notMapped')}
                    onChange={(e) => set(r.input, e.target.value)}
                  />
                  {!r.declared && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={msg('removeAria', { input: r.input })}
                      onClick={() => onRows(rows.filter((x) => x.input !== r.input))}
                    >
                      {msg('remove')}
                    </Button>
                  )}
                </div>
                <FieldError message={message} />
              </div>
            );
          })}
        </div>
      )}
      {/* An error about the mapping as a whole (e.g. too many inputs), not about one row. */}
      <FieldError message={rowsHaveError ? null : fieldError(error, 'mapping')} />
    </fieldset>
  );
}
