'use client';
/** The right-hand panel: the selected node's generated form, or the workflow's settings when nothing is selected. */
import { useTranslations } from 'next-intl';
import { useCallback, useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { useEditorContext, useEditorState, useNodeProblems, useRunState } from '../editor-context';
import { isTerminal, type RunState } from '../run/run-store';
import type { EditorState } from '../editor-store';
import { fieldPath, setIn } from '../graph-model';
import { categoryStyle } from '../canvas/categories';
import { startResume } from '../run/run-actions';
import { FormContext, ObjectFields, renderedPaths, type FormContextValue } from './schema-form';
import { RunNodePanel } from './run-node-panel';
import { defaultsFollowing } from './defaults-by';
import { templateSuggestions } from './template-suggestions';
import { UnknownKeyFix } from './unknown-key-fix';
import { LOCKED_FIELDS, MultiInspector, Panel, ReadOnlyNote, WorkflowInspector } from './workflow-inspector';

const selectSelected = (s: EditorState) => s.selectedIds;
const selectRunId = (s: RunState) => s.runId;
const selectRunFinished = (s: RunState) => isTerminal(s.status);

export function Inspector() {
  const selected = useEditorState(selectSelected);
  if (selected.length === 1) return <NodeInspector key={selected[0]} nodeId={selected[0]} />;
  if (selected.length > 1) return <MultiInspector count={selected.length} />;
  return <WorkflowInspector />;
}

function NodeInspector({ nodeId }: { nodeId: string }) {
  const { editor, runs, runController } = useEditorContext();
  const tn = useTranslations('inspector.node');
  // Data and type only: moving the node does not re-render its form.
  const selectData = useCallback((s: EditorState) => s.nodes.find((n) => n.id === nodeId)?.data, [nodeId]);
  const selectType = useCallback((s: EditorState) => s.nodes.find((n) => n.id === nodeId)?.type, [nodeId]);
  const data = useEditorState(selectData);
  const type = useEditorState(selectType);
  const node = data ? { data, type } : undefined;
  const problems = useNodeProblems(nodeId);
  const t = type ? editor.types.get(type) : undefined;
  // Read at the moment `{{` is typed, so the inspector does not re-render while other nodes are dragged.
  const suggestions = useCallback(
    () =>
      templateSuggestions(
        nodeId,
        editor.state.nodes,
        editor.state.edges,
        editor.types,
        editor.state.conversationVariables,
      ),
    [editor, nodeId],
  );

  const config = node?.data.config;
  const known = useMemo(() => {
    const s = new Set<string>(['data.label', 'data.retry.maxAttempts', 'data.retry.backoffMs', 'data.timeoutMs']);
    if (t) renderedPaths(t.configSchema, config, ['data', 'config'], s);
    return s;
  }, [t, config]);

  const form: FormContextValue = useMemo(
    () => ({
      problemsAt: (path: string) => problems.filter((p) => p.field === path),
      suggestions,
      // Form paths are node paths (`data.config.…`); node data starts below `data`.
      onChangeAt: (path, value) =>
        editor.updateNodeData(
          nodeId,
          (d) => {
            let next = setIn(d, path.slice(1), value);
            // A top-level config choice may bring other fields' defaults with it (the Code node's language).
            if (path.length === 3 && path[1] === 'config') {
              const config = (d as { config?: Record<string, unknown> }).config;
              const follow = defaultsFollowing(t?.configSchema, config, String(path[2]), value);
              for (const [name, v] of Object.entries(follow)) next = setIn(next, ['config', name], v);
            }
            return next;
          },
          fieldPath(path),
        ),
    }),
    [problems, suggestions, editor, nodeId, t],
  );

  const runId = useRunState(selectRunId);
  const runFinished = useRunState(selectRunFinished);

  if (!node) return <WorkflowInspector />;
  const cat = categoryStyle(t?.category ?? '');
  const other = problems.filter((p) => p.field === undefined || !known.has(p.field));

  const resumeFromHere = async () => {
    if (!runId) return;
    await editor.save();
    await startResume(runs, runController, runId, nodeId);
  };

  return (
    <Panel testId="inspector">
      <FormContext.Provider value={form}>
        {editor.readOnly && <ReadOnlyNote />}
        <div className="border-b border-zinc-200 px-4 py-3">
          <div className="flex items-center gap-2">
            <span className={`grid h-7 w-7 shrink-0 place-items-center rounded-md text-[11px] font-bold ${cat.chip}`}>
              {cat.icon}
            </span>
            <div className="min-w-0 flex-1">
              <div className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
                {tn('kind', { type: t?.label ?? node.type ?? '' })}
              </div>
              <div className="truncate font-mono text-[12px] text-zinc-600" data-testid="inspector-node-id">
                {nodeId}
              </div>
            </div>
            {!editor.readOnly && node.type !== 'start' && (
              <Button
                size="sm"
                variant="ghost"
                aria-pressed={node.data.breakpoint === true}
                title={tn('breakpointTitle')}
                onClick={() =>
                  editor.updateNodeData(nodeId, ({ breakpoint, ...d }) => (breakpoint ? d : { ...d, breakpoint: true }))
                }
                data-testid="toggle-breakpoint"
              >
                <span
                  className={`mr-1 inline-block h-2 w-2 rounded-full ${
                    node.data.breakpoint === true ? 'bg-red-600' : 'ring-1 ring-red-400'
                  }`}
                />
                {tn('breakpoint')}
              </Button>
            )}
            {!editor.readOnly && (
              <Button
                size="sm"
                variant="ghost"
                className="text-red-600 hover:bg-red-50"
                onClick={() => editor.deleteSelection()}
                data-testid="delete-node"
              >
                {tn('delete')}
              </Button>
            )}
          </div>
          {t?.description && <p className="mt-2 text-[12px] leading-snug text-zinc-500">{t.description}</p>}
        </div>
        {/* Disabled for a viewer: every field shows its value, none can be changed (nor rows added or removed). */}
        <fieldset
          disabled={editor.readOnly}
          className={`min-w-0 flex-1 space-y-4 overflow-y-auto p-4 ${LOCKED_FIELDS}`}
          data-testid="inspector-form"
        >
          {other.length > 0 && (
            <div className="rounded-md border border-red-200 bg-red-50 p-2.5" data-testid="node-problems">
              {other.map((p) => (
                <p
                  key={p.key}
                  className="text-[12px] leading-snug text-red-700"
                  data-testid="field-error"
                  data-path={p.path}
                >
                  {p.message}
                  <UnknownKeyFix nodeId={nodeId} problem={p} />
                </p>
              ))}
            </div>
          )}
          <div>
            <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="node-label">
              {tn('label')}
            </label>
            <input
              id="node-label"
              value={node.data.label ?? ''}
              data-testid="field-label"
              onChange={(e) =>
                editor.updateNodeData(nodeId, (d) => ({ ...d, label: e.target.value || undefined }), 'label')
              }
              className={
                'h-8 w-full rounded-md border border-zinc-300 px-2.5 text-[13px] ' +
                'outline-none focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
              }
            />
          </div>
          {t && (
            <section>
              <h3 className="mb-2 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
                {tn('configuration')}
              </h3>
              <ObjectFields schema={t.configSchema} value={config ?? {}} path={['data', 'config']} />
            </section>
          )}
          <section>
            <h3 className="mb-2 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
              {tn('runSettings')}
            </h3>
            <div className="grid grid-cols-3 gap-2">
              <NumberSetting
                label={tn('maxAttempts')}
                testId="field-retry.maxAttempts"
                value={node.data.retry?.maxAttempts}
                min={1}
                max={10}
                placeholder="1"
                problems={form.problemsAt('data.retry.maxAttempts')}
                onChange={(v) =>
                  editor.updateNodeData(
                    nodeId,
                    (d) => cleanRetry(setIn(d, ['retry', 'maxAttempts'], v)),
                    'retry.maxAttempts',
                  )
                }
              />
              <NumberSetting
                label={tn('backoff')}
                testId="field-retry.backoffMs"
                value={node.data.retry?.backoffMs}
                min={0}
                max={600000}
                placeholder="500"
                problems={form.problemsAt('data.retry.backoffMs')}
                onChange={(v) =>
                  editor.updateNodeData(
                    nodeId,
                    (d) => cleanRetry(setIn(d, ['retry', 'backoffMs'], v)),
                    'retry.backoffMs',
                  )
                }
              />
              <NumberSetting
                label={tn('timeout')}
                testId="field-timeoutMs"
                value={node.data.timeoutMs}
                min={1}
                max={3600000}
                placeholder="600000"
                problems={form.problemsAt('data.timeoutMs')}
                onChange={(v) => editor.updateNodeData(nodeId, (d) => setIn(d, ['timeoutMs'], v), 'timeoutMs')}
              />
            </div>
          </section>
          {node.type && <RunNodePanel nodeId={nodeId} type={node.type} data={node.data} />}
          {runId && runFinished && !editor.readOnly && (
            <section className="rounded-md border border-zinc-200 bg-zinc-50 p-3">
              <div className="mb-2 text-[12px] text-zinc-600">{tn('resumeHint')}</div>
              <Button size="sm" onClick={() => void resumeFromHere()} data-testid="resume-from-here">
                {tn('resume')}
              </Button>
            </section>
          )}
        </fieldset>
      </FormContext.Provider>
    </Panel>
  );
}

function cleanRetry<T extends { retry?: Record<string, unknown> }>(d: T): T {
  if (d.retry && Object.keys(d.retry).length === 0) {
    const { retry: _drop, ...rest } = d;
    return rest as T;
  }
  return d;
}

function NumberSetting({
  label,
  value,
  onChange,
  min,
  max,
  placeholder,
  testId,
  problems,
}: {
  label: string;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  min: number;
  max: number;
  placeholder: string;
  testId: string;
  problems: { key: string; message: string }[];
}) {
  return (
    <div>
      <label className="mb-1 block text-[11px] font-medium text-zinc-600">{label}</label>
      <input
        type="number"
        min={min}
        max={max}
        value={value ?? ''}
        placeholder={placeholder}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.valueAsNumber)}
        className={
          'h-8 w-full rounded-md border px-2 text-[13px] outline-none focus:ring-2 ' +
          (problems.length
            ? 'border-red-400 focus:ring-red-100'
            : 'border-zinc-300 focus:border-indigo-400 focus:ring-indigo-100')
        }
      />
      {problems.map((p) => (
        <p key={p.key} className="mt-1 text-[11px] text-red-600" data-testid="field-error">
          {p.message}
        </p>
      ))}
    </div>
  );
}
