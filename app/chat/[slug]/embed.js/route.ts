import { getTranslations } from 'next-intl/server';
import { embedScript } from '@/lib/server/chat/embed-script';
import { originOf } from '@/lib/server/publishing/v1-http';

export const dynamic = 'force-dynamic';

/**
 * The embed: `<script src="…/chat/:slug/embed.js" async></script>` on any site adds a chat bubble that opens this
 * workflow's chat page in an iframe. Static apart from the page's URL and the bubble's labels.
 */
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const t = await getTranslations('chat');
  const body = embedScript(`${originOf(req)}/chat/${encodeURIComponent(slug)}`, {
    open: t('openChat'),
    close: t('closeChat'),
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
    },
  });
}
