/**
 * Every UI and API string in English and Simplified Chinese, one JSON file per area and language (messages/<locale>/
 * <namespace>.json), except `nodes`: each node type's texts are in its own package, engine/nodes/<type>/
 * messages.<locale>.json, gathered by engine/nodes/messages.ts. Keys are the same in both languages:
 * test/i18n/messages-match-in-both-languages.test.ts fails when a key misses its translation, and
 * test/i18n/ui-has-no-untranslated-strings.test.ts when a component shows a literal string or names a missing key.
 * `nodes` (the node catalogue) and `errors` (API error messages) are read on the server only.
 */
import type { Locale } from '@/lib/i18n/locales';
import { NODE_MESSAGES } from '@/engine/nodes/messages';
import enCommon from './en/common.json';
import enAuth from './en/auth.json';
import enWorkflowList from './en/workflowList.json';
import enTemplates from './en/templates.json';
import enEditor from './en/editor.json';
import enCanvas from './en/canvas.json';
import enInspector from './en/inspector.json';
import enRun from './en/run.json';
import enPublish from './en/publish.json';
import enTriggers from './en/triggers.json';
import enKnowledge from './en/knowledge.json';
import enRuns from './en/runs.json';
import enDatasets from './en/datasets.json';
import enEvaluate from './en/evaluate.json';
import enSettings from './en/settings.json';
import enChat from './en/chat.json';
import enErrors from './en/errors.json';
import zhCommon from './zh-CN/common.json';
import zhAuth from './zh-CN/auth.json';
import zhWorkflowList from './zh-CN/workflowList.json';
import zhTemplates from './zh-CN/templates.json';
import zhEditor from './zh-CN/editor.json';
import zhCanvas from './zh-CN/canvas.json';
import zhInspector from './zh-CN/inspector.json';
import zhRun from './zh-CN/run.json';
import zhPublish from './zh-CN/publish.json';
import zhTriggers from './zh-CN/triggers.json';
import zhKnowledge from './zh-CN/knowledge.json';
import zhRuns from './zh-CN/runs.json';
import zhDatasets from './zh-CN/datasets.json';
import zhEvaluate from './zh-CN/evaluate.json';
import zhSettings from './zh-CN/settings.json';
import zhChat from './zh-CN/chat.json';
import zhErrors from './zh-CN/errors.json';

export const NAMESPACES = [
  'common',
  'auth',
  'workflowList',
  'templates',
  'editor',
  'canvas',
  'inspector',
  'run',
  'publish',
  'triggers',
  'knowledge',
  'runs',
  'datasets',
  'evaluate',
  'settings',
  'chat',
  'nodes',
  'errors',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
/** Namespaces only the server reads: not sent to the browser. */
export const SERVER_NAMESPACES: readonly Namespace[] = ['nodes', 'errors'];

export type Messages = { [key: string]: string | Messages };

export const MESSAGES: Record<Locale, Record<Namespace, Messages>> = {
  en: {
    common: enCommon,
    auth: enAuth,
    workflowList: enWorkflowList,
    templates: enTemplates,
    editor: enEditor,
    canvas: enCanvas,
    inspector: enInspector,
    run: enRun,
    publish: enPublish,
    triggers: enTriggers,
    knowledge: enKnowledge,
    runs: enRuns,
    datasets: enDatasets,
    evaluate: enEvaluate,
    settings: enSettings,
    chat: enChat,
    nodes: NODE_MESSAGES.en,
    errors: enErrors,
  },
  'zh-CN': {
    common: zhCommon,
    auth: zhAuth,
    workflowList: zhWorkflowList,
    templates: zhTemplates,
    editor: zhEditor,
    canvas: zhCanvas,
    inspector: zhInspector,
    run: zhRun,
    publish: zhPublish,
    triggers: zhTriggers,
    knowledge: zhKnowledge,
    runs: zhRuns,
    datasets: zhDatasets,
    evaluate: zhEvaluate,
    settings: zhSettings,
    chat: zhChat,
    nodes: NODE_MESSAGES['zh-CN'],
    errors: zhErrors,
  },
};

/** The messages the browser gets: every namespace but the server-only ones. */
export function clientMessages(locale: Locale): Record<string, Messages> {
  const all = MESSAGES[locale];
  return Object.fromEntries(NAMESPACES.filter((n) => !SERVER_NAMESPACES.includes(n)).map((n) => [n, all[n]]));
}
