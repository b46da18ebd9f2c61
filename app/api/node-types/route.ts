import { localizeCatalogue } from '@/lib/i18n/node-catalogue';
import { requestLocale } from '@/lib/i18n/locales';
import { guarded } from '@/lib/server/auth/guard';

export const dynamic = 'force-dynamic';

/**
 * The registry the engine validates with, so the palette never offers a type the server would refuse; labels,
 * descriptions and field titles in the request's language (the `paiflow-locale` cookie, else Accept-Language).
 */
export const GET = guarded('read', async (req, _ctx: unknown, { app }) => {
  const locale = requestLocale(req);
  return Response.json(localizeCatalogue(app.registry.describe(), locale), {
    headers: { 'content-language': locale, vary: 'Accept-Language, Cookie' },
  });
});
