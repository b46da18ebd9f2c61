import { guarded } from '@/lib/server/auth/guard';
import { getRunOr404 } from '@/lib/server/workflows/workflows';

export const dynamic = 'force-dynamic';

/**
 * The chat turn a run answered (a chat app's run), for the run's view: its conversation, the answer's id and the
 * reader's feedback (👍 / 👎 and comment). `{ chat: null }` for a run no chat started.
 */
export const GET = guarded(
  'read',
  async (_req, { params }: { params: Promise<{ runId: string }> }, { app, caller }) => {
    const run = await getRunOr404(app, caller, (await params).runId);
    const m = await app.stores.chat.messageOfRun(run.id);
    return Response.json({
      chat: m ? { conversationId: m.conversationId, messageId: m.id, answer: m.content, feedback: m.feedback } : null,
    });
  },
);
