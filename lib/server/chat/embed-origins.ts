/**
 * Tells the page proxy (proxy.ts, lib/http/page-security.ts) which sites may frame a chat app's page: the app's
 * `embedOrigins` while its workflow is published with the chat app on, else none. Registered when this module loads:
 * the chat routes and the chat page import it, and the production server loads the chat routes at start-up.
 */
import { provideEmbedOrigins } from '@/lib/http/page-security';
import { getApp } from '../app';

provideEmbedOrigins(async (slug) => {
  const wf = await (await getApp()).store.getWorkflowBySlug(slug);
  if (!wf?.currentVersionId || !wf.chat?.enabled) return null;
  return wf.chat.embedOrigins;
});
