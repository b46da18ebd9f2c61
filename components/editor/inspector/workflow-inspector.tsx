'use client';
/**
 * The inspector when no single node is selected: the workflow's settings (name, description, engine, shortcuts), or
 * the actions on a multi-selection. Also the panel frame and read-only note every inspector view shares.
 */
import { useTranslations } from 'next-intl';
import type { EngineChoice } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { ConversationVariablesSection } from './conversation-variables';

export function Panel({ children, testId }: { children: React.ReactNode; testId: string }) {
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
export const LOCKED_FIELDS =
  '[&_:is(input,textarea,select):disabled]:cursor-not-allowed [&_:is(input,textarea,select):disabled]:bg-zinc-50 ' +
  '[&_:is(input,textarea,select):disabled]:text-zinc-700';

/** Shown on top of the inspector of a viewer's (read-only) editor. */
export function ReadOnlyNote() {
  const t = useTranslations('inspector');
  return (
    <p
      data-testid="inspector-read-only"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-[12px] leading-snug text-amber-900"
    >
      {t('readOnly')}
    </p>
  );
}

export function MultiInspector({ count }: { count: number }) {
  const { editor } = useEditorContext();
  const t = useTranslations('inspector.multi');
  return (
    <Panel testId="inspector">
      {editor.readOnly && <ReadOnlyNote />}
      <div className="p-4 text-sm text-zinc-600">
        <div className="mb-3 font-medium text-zinc-900">{t('selected', { count })}</div>
        {editor.readOnly ? (
          <p className="text-[13px]">{t('copyOnly')}</p>
        ) : (
          <>
            <p className="mb-4 text-[13px]">{t('hint')}</p>
            <Button variant="danger" size="sm" onClick={() => editor.deleteSelection()} data-testid="delete-selection">
              {t('delete', { count })}
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

export function WorkflowInspector() {
  const { editor } = useEditorContext();
  const name = useEditorState(selectMeta);
  const description = useEditorState(selectDescription);
  const engine = useEditorState(selectEngine);
  const count = useEditorState(selectCount);
  const t = useTranslations('inspector.workflow');
  return (
    <Panel testId="inspector">
      {editor.readOnly && <ReadOnlyNote />}
      <div className="border-b border-zinc-200 px-4 py-3">
        <div className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{t('heading')}</div>
        <div className="mt-0.5 text-sm text-zinc-500">{t('hint', { count })}</div>
      </div>
      {/* A disabled fieldset disables every control inside: a viewer sees the settings but cannot change them. */}
      <fieldset
        disabled={editor.readOnly}
        className={`min-w-0 space-y-3 overflow-y-auto p-4 ${LOCKED_FIELDS}`}
        data-testid="workflow-settings"
      >
        <div>
          <label className="mb-1 block text-[12px] font-medium text-zinc-700" htmlFor="wf-name">
            {t('name')}
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
            {t('description')}
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
            {t('engine')}
          </label>
          <select
            id="wf-engine"
            value={engine}
            onChange={(e) => editor.setMeta({ engine: e.target.value as EngineChoice })}
            data-testid="workflow-engine"
            className="h-8 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-[13px]"
          >
            <option value="auto">{t('engineAuto')}</option>
            {/* i18n-exempt: engine names, as stored in the workflow */}
            <option value="dag">dag</option>
            {/* i18n-exempt: engine names, as stored in the workflow */}
            <option value="langgraph">langgraph</option>
          </select>
        </div>
        <ConversationVariablesSection />
        <div className="rounded-md bg-zinc-50 p-3 text-[12px] leading-relaxed text-zinc-500">
          <b className="text-zinc-700">{t('shortcuts')}</b>
          <br />
          {t('shortcutList')}
        </div>
      </fieldset>
    </Panel>
  );
}
