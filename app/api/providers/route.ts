import { guarded } from '@/lib/server/auth/guard';
import { providerCatalogue } from '@/engine/llm/catalogue';

export const dynamic = 'force-dynamic';

/**
 * The model providers PaiFlow knows by name: `[{ id, name, names: { en, zh }, baseUrl, docsUrl, kinds, models: [{ id,
 * kind, contextWindow?, inputUsdPerM?, outputUsdPerM? }] }]`. Any member may read it (the model pickers use it).
 */
export const GET = guarded('read', async () =>
  Response.json(
    providerCatalogue().map(({ id, name, names, baseUrl, docsUrl, kinds, listsModels, models }) => ({
      id,
      name,
      names,
      baseUrl,
      docsUrl,
      kinds,
      listsModels,
      models,
    })),
  ),
);
