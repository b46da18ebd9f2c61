/**
 * The template gallery over HTTP: which language a request reads (GET /api/templates answers in it), how a template
 * is presented, and POST /api/workflows { templateId, name? } — a new workflow whose graph is the template's, in the
 * request's language. The templates themselves are data in engine/templates/.
 *
 * A workflow made from a template is stored as a draft: the template's graph is valid, and what may still be missing
 * is only what the user must choose (the knowledge base of the RAG template). Those come back in `problems`, as the
 * editor's autosave answers, instead of refusing to create the workflow at all.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { ENGINES, type Graph } from '@/engine/graph/schema';
import {
  findTemplate,
  localizedGraph,
  pick,
  TEMPLATE_CATEGORIES,
  type TemplateLang,
  type WorkflowTemplate,
} from '@/engine/templates';
import { nameSchema } from '@/engine/text/names';
import { negotiateLocale, requestLocale, type Locale } from '@/lib/i18n/locales';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { checkWorkflowForSave, newWorkflowId, workflowBodySchema } from './workflows';
import { uniqueWorkflowName } from './unique-name';
import { parseInput } from '@/lib/http/body';

/** A UI locale as the templates name their languages. */
const templateLang = (locale: Locale): TemplateLang => (locale === 'zh-CN' ? 'zh' : 'en');

/** The first supported language of an Accept-Language header, by preference (q) and then order; else English. */
export function acceptedLanguage(header: string | null): TemplateLang {
  return templateLang(negotiateLocale(header));
}

/**
 * The request's language: `?lang=zh-CN|zh|en` when it names a supported one, else the `paiflow-locale` cookie (the
 * UI's language switch), else Accept-Language — the same choice the pages make (lib/i18n/locales.ts).
 */
export function requestLanguage(req: Request): TemplateLang {
  return templateLang(requestLocale(req));
}

/** The Content-Language of an answer in `lang`. */
export const contentLanguage = (lang: TemplateLang) => (lang === 'zh' ? 'zh-CN' : 'en');

/** A template as GET /api/templates lists it, in `lang`. */
export function presentTemplate(t: WorkflowTemplate, lang: TemplateLang) {
  const graph = localizedGraph(t, lang);
  return {
    id: t.id,
    name: pick(t.name, lang),
    description: pick(t.description, lang),
    category: t.category,
    categoryName: pick(TEMPLATE_CATEGORIES[t.category], lang),
    howTo: pick(t.howTo, lang),
    tags: t.tags ?? [],
    engine: t.engine ?? 'auto',
    nodeCount: graph.nodes.length,
    graph,
  };
}

export const fromTemplateBodySchema = z.strictObject({
  templateId: z.string().trim().min(1, 'templateId is required').max(100),
  name: nameSchema(200).optional(),
  description: z.string().max(5000).optional(),
  engine: z.enum(ENGINES).optional(),
});
export type FromTemplateBody = z.infer<typeof fromTemplateBodySchema>;
type WorkflowBody = z.infer<typeof workflowBodySchema>;

/**
 * POST /api/workflows' body: `{ templateId, name?, description?, engine? }` when it names a template, else the
 * workflow itself `{ name, description?, graph, engine? }`. Each shape is checked with its own schema, so an error
 * points at the field of the shape the caller meant (a union would only say "invalid input"), and an unknown key is
 * named with the key of that shape it was probably meant to be.
 */
export function parseCreateWorkflowBody(v: unknown): FromTemplateBody | WorkflowBody {
  const fromTemplate = !!v && typeof v === 'object' && !Array.isArray(v) && 'templateId' in v;
  if (fromTemplate && 'graph' in v)
    throw new PaiError(
      'VALIDATION_ERROR',
      'a workflow made from a template takes its graph from the template: send templateId or graph',
      { path: 'graph' },
    );
  return fromTemplate ? parseInput(fromTemplateBodySchema, v) : parseInput(workflowBodySchema, v);
}

export const isFromTemplate = (b: FromTemplateBody | WorkflowBody): b is FromTemplateBody => 'templateId' in b;

/**
 * Knowledge nodes the template leaves open point at the workspace's knowledge base when it has exactly one (there
 * is nothing to choose); with none or several the field stays empty and the draft's problem asks the user to pick.
 */
async function bindKnowledgeBase(app: App, workspaceId: string, graph: Graph): Promise<Graph> {
  const open = graph.nodes.filter((n) => n.type === 'knowledge' && !n.data.config.knowledgeBaseId);
  if (!open.length) return graph;
  const kbs = await app.knowledge.inWorkspace(workspaceId).listKnowledgeBases();
  if (kbs.length === 1) for (const n of open) n.data.config = { ...n.data.config, knowledgeBaseId: kbs[0].id };
  return graph;
}

/** Creates a workflow of the caller's workspace from a template (see the module comment); 404 for an unknown id. */
export async function createWorkflowFromTemplate(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  body: FromTemplateBody,
  lang: TemplateLang,
) {
  const template = findTemplate(body.templateId);
  if (!template)
    throw new PaiError('TEMPLATE_NOT_FOUND', `there is no template "${body.templateId}" (GET /api/templates)`, {
      path: 'templateId',
    });
  const engine = body.engine ?? template.engine ?? 'auto';
  const graph = await bindKnowledgeBase(app, caller.workspaceId, localizedGraph(template, lang));
  const checked = await checkWorkflowForSave(app, caller, graph, engine, true);
  const name = await uniqueWorkflowName(app, caller.workspaceId, body.name ?? pick(template.name, lang));
  const wf = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name,
    description: body.description ?? pick(template.description, lang),
    graph: checked.graph,
    engine,
  });
  return { ...wf, templateId: template.id, problems: checked.problems };
}
