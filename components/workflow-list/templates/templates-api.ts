/**
 * The template gallery's calls (GET /api/templates, POST /api/workflows { templateId }) and the language it asks
 * them in. Until the UI has its i18n layer, the gallery follows the browser's languages, read the way the server
 * reads Accept-Language (lib/server/workflow-templates.ts): Simplified Chinese or English, and says so with `?lang=`
 * so the cards, the created workflow's name and its node labels are all in the same language.
 */
import { call } from '@/components/api/client';
import type { EngineChoice, Graph, Workflow } from '@/components/api/types';

export type GalleryLang = 'en' | 'zh';

export interface TemplateInfo {
  id: string;
  name: string;
  description: string;
  category: string;
  categoryName: string;
  howTo: string;
  tags: string[];
  engine: EngineChoice;
  nodeCount: number;
  graph: Graph;
}

function langOfTag(tag: string): GalleryLang | undefined {
  const t = tag.toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en';
  if (['zh', 'zh-cn', 'zh-sg', 'zh-hans'].includes(t) || t.startsWith('zh-hans-')) return 'zh';
  return undefined;
}

/** The first of the browser's languages the gallery has (English when none is). */
export function browserLanguage(): GalleryLang {
  if (typeof navigator === 'undefined') return 'en';
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const lang = tag && langOfTag(tag);
    if (lang) return lang;
  }
  return 'en';
}

export const templatesApi = {
  list: (lang: GalleryLang, signal?: AbortSignal) =>
    call<TemplateInfo[]>('GET', `/api/templates?lang=${lang}`, undefined, signal),
  /** A draft like the editor's: what the user still has to choose (a knowledge base) comes back in `problems`. */
  create: (templateId: string, lang: GalleryLang) =>
    call<Workflow & { templateId: string }>('POST', `/api/workflows?draft=1&lang=${lang}`, { templateId }),
};
