import { TEMPLATES } from '@/engine/templates';
import { guarded } from '@/lib/server/auth/guard';
import { contentLanguage, presentTemplate, requestLanguage } from '@/lib/server/workflows/templates';

export const dynamic = 'force-dynamic';

/**
 * The template gallery: `[{ id, name, description, category, categoryName, howTo, tags, engine, nodeCount, graph }]`
 * with names, descriptions, how-to notes and node labels in the request's language (`?lang=zh-CN|en`, else
 * Accept-Language; Simplified Chinese or English). Create a workflow from one with POST /api/workflows { templateId }.
 */
export const GET = guarded('read', async (req) => {
  const lang = requestLanguage(req);
  return Response.json(
    TEMPLATES.map((t) => presentTemplate(t, lang)),
    { headers: { 'content-language': contentLanguage(lang), vary: 'Accept-Language' } },
  );
});
