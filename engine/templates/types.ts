/**
 * Workflow templates: ready-made graphs the gallery offers under "New workflow" (GET /api/templates, POST
 * /api/workflows { templateId }). A template is data, not code: a graph in the stored shape plus its name,
 * description and how-to note in English and Simplified Chinese.
 *
 * Rules every template keeps (checked by test/api/templates-*.test.ts):
 * - its graph validates and runs to `succeeded` offline on the demo model, in both languages, with the Start inputs'
 *   defaults, so "Run" works right after "Use template". Two things the user must choose are left open: where to
 *   send (an input naming an outbound URL ends in `Url` and, if the user must set it, has no default — the offline
 *   test points every `…Url` input at a local server) and which knowledge base a knowledge node searches;
 * - prompts ask the model to answer in the language of the input, so one graph serves both languages; what a user
 *   reads verbatim (node labels, Start input descriptions and defaults, fixed reply texts) is localised in `zh`.
 */
import type { EngineChoice, Graph } from '../graph/schema';

export const TEMPLATE_LANGS = ['en', 'zh'] as const;
/** `zh` is Simplified Chinese. */
export type TemplateLang = (typeof TEMPLATE_LANGS)[number];

export interface Localized {
  en: string;
  zh: string;
}

/** The gallery's categories, in its order, with their names. */
export const TEMPLATE_CATEGORIES = {
  knowledge: { en: 'Knowledge', zh: '知识库' },
  support: { en: 'Customer support', zh: '客户服务' },
  writing: { en: 'Writing', zh: '写作' },
  agents: { en: 'Agents', zh: '智能体' },
  automation: { en: 'Automation', zh: '自动化' },
  media: { en: 'Audio & media', zh: '音频与多媒体' },
} as const satisfies Record<string, Localized>;
export type TemplateCategory = keyof typeof TEMPLATE_CATEGORIES;

export interface WorkflowTemplate {
  /** Stable id used by POST /api/workflows { templateId }: kebab-case, never reused for another template. */
  id: string;
  category: TemplateCategory;
  name: Localized;
  description: Localized;
  /** A short "how to use" note: what to set before the first run, and how to adapt it. Lines are kept. */
  howTo: Localized;
  /** Search keywords (both languages welcome). */
  tags?: string[];
  /** The graph in English; `zh` says what differs in the Chinese copy. */
  graph: Graph;
  engine?: EngineChoice;
  /** The Chinese copy of the graph: node labels and config keys replaced, by node id (a shallow merge per node). */
  zh?: {
    labels?: Record<string, string>;
    config?: Record<string, Record<string, unknown>>;
    /** A condition's branch labels, by node id and branch id (the ids, which edges name, stay). */
    branches?: Record<string, Record<string, string>>;
  };
}
