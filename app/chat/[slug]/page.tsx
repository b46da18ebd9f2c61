import { getTranslations } from 'next-intl/server';
import { ChatPage } from '@/components/chat/chat-page';
import { getApp } from '@/lib/server/app';
import { chatWorkflow } from '@/lib/server/chat/access';
import { publicChatConfig } from '@/lib/server/publishing/chat-settings';

export const dynamic = 'force-dynamic';
type Props = { params: Promise<{ slug: string }> };

async function configOf(slug: string) {
  try {
    return publicChatConfig(await chatWorkflow(await getApp(), null, slug));
  } catch {
    return null; // not published, chat off, or no such slug: one answer for all
  }
}

export async function generateMetadata({ params }: Props) {
  const t = await getTranslations('chat');
  const config = await configOf((await params).slug);
  return { title: config?.title ?? t('pageTitle') };
}

/** The hosted chat page of a published workflow (public, or behind its access code). */
export default async function HostedChatPage({ params }: Props) {
  const t = await getTranslations('chat');
  const config = await configOf((await params).slug);
  if (!config)
    return (
      <main className="grid min-h-screen place-items-center p-6 text-sm text-zinc-600" data-testid="chat-unavailable">
        {t('unavailable')}
      </main>
    );
  return <ChatPage config={{ ...config, slug: config.slug! }} />;
}
