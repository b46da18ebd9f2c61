/**
 * The template gallery's calls (GET /api/templates, POST /api/workflows { templateId }) and the language it asks
 * them in: the UI's language, said with `?lang=` so the cards, the created workflow's name and its node labels are
 * all in the language the rest of the page is in (the server reads `?lang=` first, lib/server/workflows/templates.ts).
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

/** The gallery's language for a UI locale (next-intl's useLocale(): 'en' | 'zh-CN'). */
export function galleryLang(locale: string): GalleryLang {
  return locale === 'zh-CN' ? 'zh' : 'en';
}

export const templatesApi = {
  list: (lang: GalleryLang, signal?: AbortSignal) =>
    call<TemplateInfo[]>('GET', `/api/templates?lang=${lang}`, undefined, signal),
  /** A draft like the editor's: what the user still has to choose (a knowledge base) comes back in `problems`. */
  create: (templateId: string, lang: GalleryLang) =>
    call<Workflow & { templateId: string }>('POST', `/api/workflows?draft=1&lang=${lang}`, { templateId }),
};
