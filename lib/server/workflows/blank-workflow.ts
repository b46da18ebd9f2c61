/**
 * POST /api/workflows without a graph: a blank workflow, as the list's "Blank workflow" creates it. It is not
 * empty — an empty graph has two problems before the user did anything — but a Start joined to an End, which runs
 * at once, with room between them for the first node. Without a name it is "Untitled workflow", numbered when the
 * workspace has one already (unique-name.ts). Name and node labels are in the request's language, like a template's.
 * A caller that sends a graph gets that graph; this module is not involved.
 */
import { createTranslator } from 'next-intl';
import { z } from 'zod';
import { ENGINES, type Graph } from '@/engine/graph/schema';
import type { NodeRegistry } from '@/engine/node-kit/registry';
import { nameSchema } from '@/engine/text/names';
import type { Locale } from '@/lib/i18n/locales';
import { MESSAGES } from '@/messages';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { uniqueWorkflowName } from './unique-name';
import { checkWorkflowForSave, newWorkflowId } from './workflows';

export const blankWorkflowBodySchema = z.strictObject({
  name: nameSchema(200).optional(),
  description: z.string().max(5000).optional(),
  engine: z.enum(ENGINES).optional(),
});
export type BlankWorkflowBody = z.infer<typeof blankWorkflowBodySchema>;

/**
 * A create body with none but these keys (no `graph`, no `templateId`) asks for a blank workflow; one with another
 * key is read as the classic body, so a misspelt `graph` is refused with a suggestion instead of ignored.
 */
export function isBlankWorkflowBody(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  return Object.keys(v).every((k) => Object.hasOwn(blankWorkflowBodySchema.shape, k));
}

/** A message of the UI's catalogue (messages/<locale>/<namespace>.json), as the server writes it into a workflow. */
function text(locale: Locale, namespace: 'nodes' | 'workflowList', key: string): string {
  return createTranslator({ locale, messages: MESSAGES[locale], namespace })(key as never);
}

/** Start → End, labelled in `locale`; End 600 px right of Start leaves a card's room (240 px) between them. */
export function blankGraph(registry: NodeRegistry, locale: Locale): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: {
          label: text(locale, 'nodes', 'start.label'),
          version: registry.get('start').version,
          config: { inputs: [] },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: {
          label: text(locale, 'nodes', 'end.label'),
          version: registry.get('end').version,
          config: { outputs: [] },
        },
      },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'end' }],
  };
}

export async function createBlankWorkflow(
  app: App,
  caller: Pick<Caller, 'workspaceId'>,
  body: BlankWorkflowBody,
  locale: Locale,
) {
  const engine = body.engine ?? 'auto';
  const checked = await checkWorkflowForSave(app, caller, blankGraph(app.registry, locale), engine, true);
  const untitled = text(locale, 'workflowList', 'untitled');
  const wf = await app.store.createWorkflow({
    workspaceId: caller.workspaceId,
    id: newWorkflowId(),
    name: body.name ?? (await uniqueWorkflowName(app, caller.workspaceId, untitled)),
    description: body.description ?? '',
    graph: checked.graph,
    engine,
  });
  return { ...wf, problems: checked.problems };
}
