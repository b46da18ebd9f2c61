'use client';
/** The one- or two-line description of a node's configuration on its card, and the text of its run result. */
import { useTranslations } from 'next-intl';

function firstLine(s: unknown, max = 60): string {
  const t = typeof s === 'string' ? s.trim().split('\n')[0] : '';
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

export function Summary({ type, config }: { type: string; config: Record<string, unknown> }) {
  const t = useTranslations('canvas.node');
  switch (type) {
    case 'start': {
      const inputs = Array.isArray(config.inputs) ? (config.inputs as Array<{ name?: string; type?: string }>) : [];
      if (!inputs.length) return <span className="italic text-zinc-400">{t('noInputs')}</span>;
      return (
        <span className="font-mono">{inputs.map((i) => `${i.name || '?'}: ${i.type ?? 'string'}`).join(', ')}</span>
      );
    }
    case 'end': {
      const outs = Array.isArray(config.outputs) ? (config.outputs as Array<{ name?: string }>) : [];
      if (!outs.length) return <span className="italic text-zinc-400">{t('noOutputs')}</span>;
      return <span className="font-mono">{outs.map((o) => o.name || '?').join(', ')}</span>;
    }
    case 'llm':
      return (
        <>
          <span className="font-mono text-zinc-700">{String(config.model ?? '')}</span>
          {config.userPrompt ? <> · {firstLine(config.userPrompt, 40)}</> : null}
        </>
      );
    case 'question_classifier':
      return (
        <>
          <span className="font-mono text-zinc-700">{String(config.model ?? '')}</span>
          {config.query ? <> · {firstLine(config.query, 40)}</> : null}
        </>
      );
    case 'parameter_extractor': {
      const params = Array.isArray(config.parameters) ? (config.parameters as Array<{ name?: string }>) : [];
      return (
        <>
          <span className="font-mono text-zinc-700">{String(config.model ?? '')}</span>
          {params.length ? <> · {firstLine(params.map((p) => p.name || '?').join(', '), 40)}</> : null}
        </>
      );
    }
    case 'template':
      return (
        <span className="font-mono">
          {firstLine(config.template) || <span className="italic text-zinc-400">{t('emptyTemplate')}</span>}
        </span>
      );
    case 'list_operator':
      return <span className="font-mono">{firstLine(config.input, 48)}</span>;
    case 'document_extractor':
      return <span className="font-mono">{firstLine(config.files, 48)}</span>;
    case 'variable_aggregator': {
      const groups = Array.isArray(config.groups) ? (config.groups as Array<{ name?: string }>) : [];
      return <span className="font-mono">{groups.map((g) => g.name || '?').join(', ')}</span>;
    }
    case 'http':
      return (
        <span className="font-mono">
          <b className="font-semibold">{String(config.method ?? 'GET')}</b>{' '}
          {firstLine(config.url, 48) || <span className="italic text-zinc-400">{t('noUrl')}</span>}
        </span>
      );
    default:
      return null;
  }
}

/** A run output as text: an LLM-style `{ text }` as its text, anything else as JSON, cut at `max` characters. */
export function outputText(v: unknown, max: number): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && 'text' in v && typeof (v as { text: unknown }).text === 'string')
    return cut((v as { text: string }).text, max);
  return cut(typeof v === 'string' ? v : JSON.stringify(v), max);
}

function cut(s: string, max: number) {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
