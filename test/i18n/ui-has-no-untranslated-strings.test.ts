/**
 * Every string the UI shows comes from the message files: no literal JSX text, user-facing attribute, toast or label
 * in app/ and components/ (test/i18n/ui-string-scan.ts says what counts), and every key the code names exists. A new
 * label written in English only fails here; `npx tsx test/i18n/scan-cli.ts components/x` lists what is left.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES, type Messages } from '@/messages';
import { scanUi } from './ui-string-scan';

function lookup(key: string): string | Messages | undefined {
  let at: string | Messages | undefined = MESSAGES.en as unknown as Messages;
  for (const part of key.split('.')) {
    if (at === undefined || typeof at === 'string') return undefined;
    at = at[part];
  }
  return at;
}

describe('the UI is translated', () => {
  const { findings, keys } = scanUi();

  it('shows no literal text: every label, message and placeholder is a translation key', () => {
    expect(findings.map((f) => `${f.file}:${f.line} [${f.kind}] ${f.text}`)).toEqual([]);
  });

  it('names only keys that exist (a template key names an existing group)', () => {
    const missing = keys
      .filter((k) => (k.dynamic ? typeof lookup(k.key) !== 'object' : typeof lookup(k.key) !== 'string'))
      .map((k) => `${k.file}:${k.line} ${k.key}`);
    expect(missing).toEqual([]);
    expect(keys.length).toBeGreaterThan(0);
  });
});
