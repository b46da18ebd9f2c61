'use client';
/**
 * The prices of an OpenAI-compatible credential in its create form: one row per model (or `prefix*`), USD per
 * million input, cached input and output tokens. Usage on this credential is priced at these over MODEL_PRICES and
 * the built-in list (engine/llm/prices.ts). Each problem shows under its field (credential-prices.ts).
 */
import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { EMPTY_PRICE_ROW, problemOf, type PriceField, type PriceProblem, type PriceRow } from './credential-prices';
import { inputCls } from './settings-form';

/** The input's look with a problem: a red border and ring instead of the usual ones. */
const INVALID_CLS = inputCls
  .replace('border-zinc-300', 'border-red-400')
  .replace('focus:border-indigo-400', 'focus:border-red-400')
  .replace('focus:ring-indigo-100', 'focus:ring-red-100');

/** The fields (labelled by settings.prices.columns.<field>) and their example values; none for the cached input. */
const COLUMNS: Array<[PriceField, string | null]> = [
  ['model', 'gpt-4o-mini'],
  ['input', '0.15'],
  ['cachedInput', null],
  ['output', '0.60'],
];

export function CredentialPricesFields({
  rows,
  problems,
  onChange,
}: {
  rows: PriceRow[];
  problems: PriceProblem[];
  /** `edited`: the one field typed in (its problem is gone); absent when rows were added or removed. */
  onChange: (rows: PriceRow[], edited?: { row: number; field: PriceField }) => void;
}) {
  const t = useTranslations('settings.prices');
  const set = (i: number, field: PriceField, value: string) =>
    onChange(
      rows.map((r, j) => (j === i ? { ...r, [field]: value } : r)),
      { row: i, field },
    );
  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 p-3" data-testid="credential-prices">
      <legend className="px-1 text-[12px] font-medium text-zinc-700">{t('legend')}</legend>
      <p className="text-[11px] text-zinc-500">{t('intro')}</p>
      {rows.map((r, i) => (
        <div key={i} className="flex items-start gap-2" data-testid="price-row">
          {COLUMNS.map(([field, example]) => {
            const problem = problemOf(problems, i, field);
            const id = `price-${i}-${field}`;
            return (
              <div key={field} className={field === 'model' ? 'min-w-0 flex-[2]' : 'min-w-0 flex-1'}>
                <label htmlFor={id} className="mb-1 block text-[11px] font-medium text-zinc-600">
                  {t(`columns.${field}`)}
                </label>
                <input
                  id={id}
                  data-testid={`price-${field}`}
                  inputMode={field === 'model' ? undefined : 'decimal'}
                  autoComplete="off"
                  placeholder={example ?? t('asInput')}
                  value={r[field]}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : undefined}
                  onChange={(e) => set(i, field, e.target.value)}
                  className={problem ? INVALID_CLS : inputCls}
                />
                {problem && (
                  <p id={`${id}-problem`} className="mt-0.5 text-[11px] text-red-600" data-testid="price-problem">
                    {t(`problems.${problem.code}`, problem.values)}
                  </p>
                )}
              </div>
            );
          })}
          <Button
            size="sm"
            variant="ghost"
            className="mt-5"
            aria-label={t('removeLabel', { row: i + 1 })}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            {t('remove')}
          </Button>
        </div>
      ))}
      <Button size="sm" onClick={() => onChange([...rows, EMPTY_PRICE_ROW])} data-testid="price-add">
        {t('add')}
      </Button>
    </fieldset>
  );
}
