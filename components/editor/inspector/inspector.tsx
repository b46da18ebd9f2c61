'use client';
/** The right-hand panel: the selected node's generated form, or the workflow's settings when nothing is selected. */
import { useCallback, useMemo } from 'react';
import type { EngineChoice } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { useEditorContext, useEditorState, useNodeProblems, useRunState } from '../editor-context';
import { isTerminal, type RunState } from '../run/run-store';
import type { EditorState } from '../editor-store';
import { fieldPath, setIn } from '../graph-model';
import { categoryStyle } from '../canvas/workflow-node';
import { startResume } from '../run/run-actions';
import { FormContext, ObjectFields, renderedPaths, type FormContextValue } from './schema-form';
import { RunNodePanel } from './run-node-panel';
import { templateSuggestions } from './template-suggestions';

const selectSelected = (s: EditorState) => s.selectedIds;
const selectRunId = (s: RunState) => s.runId;
const selectRunFinished = (s: RunState) => isTerminal(s.status);

export function Inspector() {
  const selected = useEditorState(selectSelected);
  if (selected.length === 1) return <NodeInspector key={selected[0]} nodeId={selected[0]} />;
  if (selected.length > 1) return <MultiInspector count={selected.length} />;
  return <WorkflowInspector />;
}

function Panel({ children, testId }: { children: React.ReactNode; testId: string }) {
  return (
    <aside
      className="flex h-full w-[23rem] shrink-0 flex-col overflow-hidden border-l border-zinc-200 bg-white"
      data-testid={testId}
    >
      {children}
    </aside>
  );
}

/** Controls inside a disabled fieldset look locked: a grey fill, readable text. */
const LOCKED_FIELDS =
  '[&_:is(input,textarea,select):disabled]:cursor-not-allowed [&_:is(input,textarea,select):disabled]:bg-zinc-50 ' +
  '[&_:is(input,textarea,select):disabled]:text-zinc-700';

/** Shown on top of the inspector of a viewer's (read-only) editor. */
function ReadOnlyNote() {
  return (
    <p
      data-testid="inspector-read-only"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-[12px] leading-snug text-amber-900"
    >
      Read-only: your role in this workspace is viewer. You can inspect the configuration, not change it.
    </p>
  );
}

function MultiInspector({ count }: { count: number }) {
  const { editor } = useEditorContext();
  return (
    <Panel testId="inspector">
      {editor.readOnly && <ReadOnlyNote />}
      <div className="p-4 text-sm text-zinc-600">
        <div className="mb-3 font-medium text-zinc-900">{count} nodes selected</div>
        {editor.readOnly ? (
          <p className="text-[13px]">Copy them with Ctrl+C.</p>
        ) : (
          <>
            <p className="mb-4 text-[13px]">Copy with Ctrl+C, paste with Ctrl+V, or delete them together.</p>
            <Button variant="danger" size="sm" onClick={() => editor.deleteSelection()} data-testid="delete-selection">
              Delete {count} nodes
            </Button>
          </>
        )}
      </div>
    </Panel>
  );
}

const selectMeta = (s: EditorState) => s.name;
const selectDescription = (s: EditorState) => s.description;
const selectEngine = (s: EditorState) => s.engine;
const selectCount = (s: EditorState) => s.nodes.length;

function WorkflowInspector() {
  const { editor } = useEditorContext();
  const name = useEditorState(selectMeta);
  const description = useEditorState(selectDescription);
  const engine = useEditorState(selectEngine);
  const count = useEditorState(selectCount);
  return (
    <Panel testId="inspector">
      {editor.readOnly && <ReadOnlyNote />}
      <div className="border-b border-zinc-200 px-4 py-3">
        <div className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Workflow</div>
        <div className="mt-0.5 text-sm text-zinc-500">
          Select a node to configure it. {count} node{count === 1 ? '' : 's'} on the canvas.
        </div>
      </div>
      {/* A disabled fieldset disables every control inside: a viewer sees the settings but cannot change them. */}
      <fieldset
        disabled={editor.readOnly}
        className={`min-w-0 space-y-3 overflow-y-auto p-4 ${LOCKED_FIELDS}`}
        data-testid="workflow-settings"
      >
        <div>
          <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="wf-name">
            Name
          </label>
          <input
            id="wf-name"
            value={name}
            onChange={(e) => editor.setMeta({ name: e.target.value })}
            data-testid="workflow-name-input"
            className={
              'h-8 w-full rounded-md border border-zinc-300 px-2.5 text-[13px] ' +
              'outline-none focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
            }
          />
        </div>
        <div>
          <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="wf-desc">
            Description
          </label>
          <textarea
            id="wf-desc"
            rows={3}
            value={description}
            onChange={(e) => editor.setMeta({ description: e.target.value })}
            className={
              'w-full rounded-md border border-zinc-300 px-2.5 py-1.5 text-[13px] ' +
              'outline-none focus:border-indigo-400 focus:ring-2 focus:ring-indigo-100'
            }
          />
        </div>
        <div>
          <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="wf-engine">
            Engine
          </label>
          <select
            id="wf-engine"
            value={engine}
            onChange={(e) => editor.setMeta({ engine: e.target.value as EngineChoice })}
            data-testid="workflow-engine"
            className="h-8 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-[13px]"
          >
            <option value="auto">auto — DAG, or state graph for cycles / loops / human input</option>
            <option value="dag">dag</option>
            <option value="langgraph">langgraph</option>
          </select>
        </div>
        <div className="rounded-md bg-zinc-50 p-3 text-[12px] leading-relaxed text-zinc-500">
          <b className="text-zinc-700">Shortcuts</b>
          <br />
          Ctrl+S save · Ctrl+Z / Ctrl+Shift+Z undo / redo · Ctrl+C / Ctrl+V copy / paste · Del delete · Shift+drag
          select · Ctrl+click multi-select
        </div>
      </fieldset>
    </Panel>
  );
}

function NodeInspector({ nodeId }: { nodeId: string }) {
  const { editor, runs, runController } = useEditorContext();
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
    () => templateSuggestions(nodeId, editor.state.nodes, editor.state.edges, editor.types),
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
        editor.updateNodeData(nodeId, (d) => setIn(d, path.slice(1), value), fieldPath(path)),
    }),
    [problems, suggestions, editor, nodeId],
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
                {t?.label ?? node.type} node
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
                title="Test runs pause before this node"
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
                Breakpoint
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
                Delete
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
                </p>
              ))}
            </div>
          )}
          <div>
            <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="node-label">
              Label
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
              <h3 className="mb-2 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Configuration</h3>
              <ObjectFields schema={t.configSchema} value={config ?? {}} path={['data', 'config']} />
            </section>
          )}
          <section>
            <h3 className="mb-2 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Run settings</h3>
            <div className="grid grid-cols-3 gap-2">
              <NumberSetting
                label="Max attempts"
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
                label="Backoff (ms)"
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
                label="Timeout (ms)"
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
              <div className="mb-2 text-[12px] text-zinc-600">
                Re-run this node and everything after it in the shown run, reusing earlier results.
              </div>
              <Button size="sm" onClick={() => void resumeFromHere()} data-testid="resume-from-here">
                Resume from here
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
