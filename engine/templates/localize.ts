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
  }
  return graph;
}
