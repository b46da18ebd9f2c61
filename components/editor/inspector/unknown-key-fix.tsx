'use client';
/**
 * The fix for a config key the node does not know (an UNKNOWN_KEY problem, which a draft may hold: imported, made
 * over the API, or from an older version): rename it to the key it was probably meant to be, or remove it. The form
 * has no field for such a key, so without this it could only be fixed by editing the JSON.
 */
import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { useEditorContext } from '../editor-context';
import type { ProblemView } from '../editor-state';
import { getIn, setIn } from '../graph-model';
import type { NodeData } from '../graph-model';

/** `data.config.provider.baseURL` → ['config', 'provider'] (the holder of the key, below the node's `data`). */
export function holderOf(field: string, key: string): Array<string | number> | null {
  if (!field.endsWith(`.${key}`)) return null;
  const segments = [...field.slice(0, -key.length - 1).matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((m) =>
    m[1] !== undefined ? Number(m[1]) : m[0],
  );
  return segments[0] === 'data' ? segments.slice(1) : null;
}

/** `data` with `key` under `holder` renamed to `to` (kept where `to` is set already), or removed (`to` undefined). */
export function fixUnknownKey(data: NodeData, holder: Array<string | number>, key: string, to?: string): NodeData {
  const value = getIn(data, [...holder, key]);
  const renamed =
    to !== undefined && getIn(data, [...holder, to]) === undefined ? setIn(data, [...holder, to], value) : data;
  return setIn(renamed, [...holder, key], undefined);
}

export function UnknownKeyFix({ nodeId, problem }: { nodeId: string; problem: ProblemView }) {
  const { editor } = useEditorContext();
  const t = useTranslations('editor.problems');
  const { key, suggestion } = problem.details ?? {};
  const holder = key && problem.field ? holderOf(problem.field, key) : null;
  if (problem.code !== 'UNKNOWN_KEY' || !key || !holder) return null;
  const taken =
    suggestion !== undefined &&
    getIn(editor.state.nodes.find((n) => n.id === nodeId)?.data, [...holder, suggestion]) !== undefined;
  const fix = (to?: string) => editor.updateNodeData(nodeId, (d) => fixUnknownKey(d, holder, key, to));
  return (
    <span className="ml-1 inline-flex gap-1">
      {suggestion && !taken && (
        <Button size="sm" variant="ghost" onClick={() => fix(suggestion)} data-testid="rename-unknown-key">
          {t('renameKey', { suggestion })}
        </Button>
      )}
      <Button size="sm" variant="ghost" onClick={() => fix()} data-testid="remove-unknown-key">
        {t('removeKey', { key })}
      </Button>
    </span>
  );
}
