'use client';
/**
 * The inspector's pickers for workspace references (see picker-kinds.ts): agent tools (built-ins, the node's own
 * workflow tools, MCP tools by server, free text for `prefix*` patterns), tools needing approval, skills, knowledge
 * bases and workflows. Lists come from the API (catalogue-api.ts); a name the list does not have stays visible, in
 * red, so nothing is dropped silently — the server reports the same names as problems on save.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { catalogueApi } from '@/components/api/catalogue-api';
import { errorMessage } from '@/components/api/client';
import { useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { fieldPath } from '../graph-model';
import { useForm, type Path } from './form-context';
import { MultiPicker, type PickGroup } from './multi-picker';
import type { PickerKind } from './picker-kinds';
import { ConversationVariablePicker } from './conversation-variables';

const TOOL_NAME = /^[A-Za-z0-9_-]{0,64}\*?$/;

/** Loads a list once per mount; `undefined` while loading. */
function useList<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null } {
  const [state, setState] = useState<{ data: T | undefined; error: string | null }>({ data: undefined, error: null });
  useEffect(() => {
    let cancelled = false;
    load().then(
      (data) => !cancelled && setState({ data, error: null }),
      (e) => !cancelled && setState({ data: undefined, error: errorMessage(e) }),
    );
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}

const selectedNode = (s: EditorState) =>
  s.selectedIds.length === 1 ? s.nodes.find((n) => n.id === s.selectedIds[0]) : undefined;
const selectWorkflowId = (s: EditorState) => s.workflowId;

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const s of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[s] : undefined;
  return v;
}

/** The object that holds the field (for a worker's `tools`: the worker), read from the node. */
function useSiblings(path: Path): { own: Record<string, unknown>; config: Record<string, unknown> } {
  const node = useEditorState(selectedNode);
  const data = node?.data as unknown;
  const own = valueAt(data, path.slice(1, -1));
  const config = valueAt(data, ['config']);
  return {
    own: own && typeof own === 'object' ? (own as Record<string, unknown>) : {},
    config: config && typeof config === 'object' ? (config as Record<string, unknown>) : {},
  };
}

const asStrings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function workflowToolOptions(own: Record<string, unknown>, config: Record<string, unknown>, fallback: string) {
  const list = Array.isArray(own.workflowTools) ? own.workflowTools : config.workflowTools;
  return (Array.isArray(list) ? list : [])
    .map((w) => w as { name?: unknown; description?: unknown })
    .filter((w) => typeof w?.name === 'string' && w.name)
    .map((w) => ({
      value: `workflow__${String(w.name)}`,
      description: typeof w.description === 'string' ? w.description : fallback,
    }));
}

interface PickerProps {
  kind: PickerKind;
  value: unknown;
  path: Path;
  onChange: (v: unknown) => void;
  testId: string;
  label: string;
  className: string;
}

export function ReferencePicker(props: PickerProps) {
  switch (props.kind) {
    case 'tools':
      return <ToolsPicker {...props} />;
    case 'toolApproval':
      return <ApprovalPicker {...props} />;
    case 'skills':
      return <SkillsPicker {...props} />;
    case 'knowledgeBases':
      return <KnowledgeBasesPicker {...props} />;
    case 'knowledgeBase':
    case 'workflow':
      return <SinglePicker {...props} />;
    case 'conversationVariable':
      return <ConversationVariablePicker {...props} />;
  }
}

function useItemProblems(path: Path) {
  const { problemsAt } = useForm();
  return (i: number) => problemsAt(fieldPath([...path, i]));
}

function ToolsPicker({ value, path, onChange, testId, label }: PickerProps) {
  const t = useTranslations('inspector.picker');
  const itemProblems = useItemProblems(path);
  const { data, error } = useList(() => catalogueApi.agentTools(), []);
  const { own, config } = useSiblings(path);
  const groups: PickGroup[] = [
    {
      label: t('builtIn'),
      options: data?.builtin.map((tool) => ({ value: tool.name, description: tool.description })) ?? [],
    },
    { label: t('nodeWorkflows'), options: workflowToolOptions(own, config, t('workflowToolDefault')) },
    ...(data?.mcp ?? []).map((s) => ({
      label: t('mcpGroup', { server: s.server }),
      error: s.error,
      options: [
        {
          value: `mcp__${s.server}__*`,
          label: `mcp__${s.server}__*`, // i18n-exempt: a tool name pattern
          description: t('everyTool', { server: s.server }),
        },
        ...s.tools.map((tool) => ({ value: tool.name, description: tool.description })),
      ],
    })),
  ];
  return (
    <MultiPicker
      value={asStrings(value)}
      onChange={onChange}
      groups={groups}
      loading={!data && !error}
      error={error}
      custom={{
        placeholder: t('toolPlaceholder'),
        check: (v) => (TOOL_NAME.test(v) ? null : t('toolNameRule')),
      }}
      testId={testId}
      label={label}
      problemsAtItem={itemProblems}
    />
  );
}

/** Tools that wait for a person's approval: chosen among the node's selected tools (or a pattern). */
function ApprovalPicker({ value, path, onChange, testId, label }: PickerProps) {
  const t = useTranslations('inspector.picker');
  const itemProblems = useItemProblems(path);
  const { own } = useSiblings(path);
  const groups: PickGroup[] = [
    { label: t('selectedTools'), options: asStrings(own.tools).map((tool) => ({ value: tool })) },
  ];
  return (
    <MultiPicker
      value={asStrings(value)}
      onChange={onChange}
      groups={groups}
      custom={{
        placeholder: t('approvalPlaceholder'),
        check: (v) => (TOOL_NAME.test(v) ? null : t('toolNameRule')),
      }}
      testId={testId}
      label={label}
      problemsAtItem={itemProblems}
    />
  );
}

function SkillsPicker({ value, path, onChange, testId, label }: PickerProps) {
  const t = useTranslations('inspector.picker');
  const itemProblems = useItemProblems(path);
  const { data, error } = useList(() => catalogueApi.skills(), []);
  const skills = Array.isArray(data) ? data : [];
  return (
    <MultiPicker
      value={asStrings(value)}
      onChange={onChange}
      groups={[
        {
          label: t('skills'),
          options: skills.map((s) => ({
            value: s.name,
            description: `${s.description}${s.source ? ` (${s.source})` : ''}`,
          })),
        },
      ]}
      loading={data === undefined && !error}
      error={error}
      hint={data === null ? t('noSkillsEndpoint') : Array.isArray(data) && !data.length ? t('noSkills') : undefined}
      testId={testId}
      label={label}
      problemsAtItem={itemProblems}
    />
  );
}

function KnowledgeBasesPicker({ value, path, onChange, testId, label }: PickerProps) {
  const t = useTranslations('inspector.picker');
  const itemProblems = useItemProblems(path);
  const { data, error } = useList(() => catalogueApi.knowledgeBases(), []);
  return (
    <MultiPicker
      value={asStrings(value)}
      onChange={onChange}
      groups={[{ label: t('knowledgeBases'), options: (data ?? []).map((k) => ({ value: k.id, label: k.name })) }]}
      loading={!data && !error}
      error={error}
      hint={data && !data.length ? t('noKnowledgeBases') : undefined}
      testId={testId}
      label={label}
      problemsAtItem={itemProblems}
    />
  );
}

/** One workflow (a workflow tool, a sub-workflow node) or one knowledge base, as a select. */
function SinglePicker({ kind, value, onChange, testId, label, className }: PickerProps) {
  const t = useTranslations('inspector.picker');
  const self = useEditorState(selectWorkflowId);
  const { data, error } = useList<{ id: string; name: string }[]>(
    () => (kind === 'workflow' ? catalogueApi.workflows() : catalogueApi.knowledgeBases()),
    [kind],
  );
  const options = (data ?? []).filter((o) => kind !== 'workflow' || o.id !== self);
  const current = typeof value === 'string' ? value : '';
  return (
    <>
      <select
        value={current}
        data-testid={testId}
        aria-label={label}
        className={className}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{kind === 'workflow' ? t('chooseWorkflow') : t('chooseKnowledgeBase')}</option>
        {current && !options.some((o) => o.id === current) && (
          <option value={current}>
            {!data ? current : t(kind === 'workflow' ? 'unknownWorkflow' : 'unknownKnowledgeBase', { id: current })}
          </option>
        )}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {error && <p className="mt-1 text-[11px] text-amber-700">{t('listFailed', { error })}</p>}
    </>
  );
}
