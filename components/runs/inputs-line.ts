/**
 * A run's inputs (or a single-node run's node input) on one line, as the run lists show them: `{}` as "no inputs",
 * the JSON's outer braces dropped, an ellipsis where the server cut the preview (at `cut` characters).
 */
import { tr } from '@/components/lib/i18n';

export function inputsLine(preview: string, cut = 200): string {
  const t = preview.trim();
  if (t === '{}' || t === '') return tr('run.history.noInputs');
  const inner = t.startsWith('{') && t.endsWith('}') ? t.slice(1, -1).trim() : t.replace(/^\{/, '');
  return preview.length >= cut ? `${inner}…` : inner;
}
