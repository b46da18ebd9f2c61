/**
 * Which config fields are chosen from a list instead of typed: a small map from (node type, field path) to the
 * picker, where the path is the field's path under `config` with array indices as `[]` (`workflowTools[].workflowId`).
 * `*` matches any node type. The server checks the same references on save (lib/server/workflows/references.ts).
 */
import type { Path } from './form-context';

export type PickerKind =
  'tools' | 'toolApproval' | 'skills' | 'knowledgeBases' | 'knowledgeBase' | 'workflow' | 'conversationVariable';

const PICKERS: Record<string, Record<string, PickerKind>> = {
  // `credentialId` (any node, any depth) keeps its own select in schema-form.tsx (credential-field.tsx).
  '*': {},
  agent: {
    tools: 'tools',
    toolApproval: 'toolApproval',
    skills: 'skills',
    knowledgeBaseIds: 'knowledgeBases',
    'workflowTools[].workflowId': 'workflow',
  },
  multi_agent: {
    'worker.tools': 'tools',
    'worker.toolApproval': 'toolApproval',
    'worker.skills': 'skills',
    'worker.knowledgeBaseIds': 'knowledgeBases',
    'worker.workflowTools[].workflowId': 'workflow',
    tools: 'tools',
    skills: 'skills',
    knowledgeBaseIds: 'knowledgeBases',
    'workflowTools[].workflowId': 'workflow',
  },
  workflow: { workflowId: 'workflow' },
  knowledge: { knowledgeBaseId: 'knowledgeBase' },
  variable_assigner: { 'operations[].variable': 'conversationVariable' },
};

/** `data.config.workflowTools.0.workflowId` → `workflowTools[].workflowId`; null outside `data.config`. */
export function configKey(path: Path): string | null {
  if (path[0] !== 'data' || path[1] !== 'config') return null;
  let out = '';
  for (const s of path.slice(2)) out += typeof s === 'number' ? '[]' : out ? `.${s}` : s;
  return out;
}

export function pickerFor(nodeType: string | undefined, path: Path): PickerKind | undefined {
  const key = configKey(path);
  if (key === null) return undefined;
  return (nodeType ? PICKERS[nodeType]?.[key] : undefined) ?? PICKERS['*'][key];
}
