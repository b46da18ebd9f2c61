/**
 * A template as one language sees it: its texts picked, and its graph copied with that language's node labels and
 * config values. The template itself is never changed (it is shared module data), so every call returns a copy.
 */
import type { Graph } from '../graph/schema';
import type { Localized, TemplateLang, WorkflowTemplate } from './types';

export const pick = (text: Localized, lang: TemplateLang): string => text[lang];

/** A deep copy of the template's graph in `lang`; the English graph is the template's own (copied). */
export function localizedGraph(template: WorkflowTemplate, lang: TemplateLang): Graph {
  const graph = structuredClone(template.graph);
  const zh = lang === 'zh' ? template.zh : undefined;
  if (!zh) return graph;
  for (const node of graph.nodes) {
    const label = zh.labels?.[node.id];
    if (label !== undefined) node.data.label = label;
    const config = zh.config?.[node.id];
    if (config) node.data.config = { ...node.data.config, ...structuredClone(config) };
    const labels = zh.branches?.[node.id];
    const branches = (node.data.config as { branches?: unknown } | undefined)?.branches;
    if (labels && Array.isArray(branches))
      for (const b of branches as Array<{ id?: unknown; label?: unknown }>)
        if (typeof b?.id === 'string' && labels[b.id] !== undefined) b.label = labels[b.id];
  }
  return graph;
}
