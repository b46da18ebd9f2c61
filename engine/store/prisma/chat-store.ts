/**
 * ChatStore on Prisma (PGlite or PostgreSQL; tables chat_conversations and chat_messages from migration
 * 0017_chat_conversations). Messages are numbered per conversation (unique (conversation_id, seq)); appending reads
 * the last number and writes in one transaction, so two turns sent at once cannot take the same number — the loser
 * fails as a unique violation and is retried.
 */
import type {
  ChatAppSecrets,
  ChatCitation,
  ChatConversationRecord,
  ChatMessageRecord,
  ChatStore,
  NewChatMessage,
} from '../chat';
import { isUniqueViolation } from './errors';
import { iso, json, pgJson, type Row } from './rows';
import type { PrismaClient } from './generated/client';

/** PostgreSQL refuses U+0000 in text. */
const safeText = (s: string) => s.replace(/\u0000/g, '\uFFFD');

function toConversation(r: Row): ChatConversationRecord {
  return {
    id: r.id,
    workflowId: r.workflowId,
    owner: r.owner,
    title: r.title,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

function toMessage(r: Row): ChatMessageRecord {
  return {
    id: r.id,
    conversationId: r.conversationId,
    seq: r.seq,
    role: r.role === 'assistant' ? 'assistant' : 'user',
    content: r.content,
    runId: r.runId ?? null,
    citations: Array.isArray(r.citations) ? (r.citations as ChatCitation[]) : [],
    feedback:
      r.feedbackRating === 1 || r.feedbackRating === -1
        ? { rating: r.feedbackRating, comment: r.feedbackComment ?? null, at: iso(r.feedbackAt)! }
        : null,
    createdAt: iso(r.createdAt)!,
  };
}

export class PrismaChatStore implements ChatStore {
  constructor(private readonly prisma: PrismaClient) {}

  async secretsOf(workflowId: string): Promise<ChatAppSecrets | null> {
    const r = await this.prisma.workflow.findUnique({ where: { id: workflowId }, select: { chat: true } });
    const c = r?.chat as { codeHash?: unknown; sessionSecret?: unknown } | null | undefined;
    if (!c || typeof c.sessionSecret !== 'string') return null;
    return { codeHash: typeof c.codeHash === 'string' ? c.codeHash : null, sessionSecret: c.sessionSecret };
  }

  async createConversation(c: { id: string; workflowId: string; owner: string; title: string }) {
    const r = await this.prisma.chatConversation.create({
      data: { id: c.id, workflowId: c.workflowId, owner: c.owner, title: safeText(c.title) },
    });
    return toConversation(r);
  }

  async getConversation(workflowId: string, id: string) {
    const r = await this.prisma.chatConversation.findFirst({ where: { id, workflowId } });
    return r ? toConversation(r) : null;
  }

  async appendMessages(conversationId: string, messages: NewChatMessage[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.prisma.$transaction(async (tx) => {
          const last = await tx.chatMessage.findFirst({
            where: { conversationId },
            orderBy: { seq: 'desc' },
            select: { seq: true },
          });
          let seq = last?.seq ?? 0;
          const out: ChatMessageRecord[] = [];
          for (const m of messages) {
            const r = await tx.chatMessage.create({
              data: {
                id: m.id,
                conversationId,
                seq: ++seq,
                role: m.role,
                content: safeText(m.content),
                runId: m.runId ?? null,
                citations: json(m.citations ?? []),
              },
            });
            out.push(toMessage(r));
          }
          await tx.chatConversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } });
          return out;
        });
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= 5) throw e;
      }
    }
  }

  async completeMessage(id: string, m: { content: string; runId: string | null; citations: ChatCitation[] }) {
    const res = await this.prisma.chatMessage.updateMany({
      where: { id },
      data: { content: safeText(m.content), runId: m.runId, citations: json(m.citations) },
    });
    if (!res.count) return null;
    const r = await this.prisma.chatMessage.findUnique({ where: { id } });
    return r ? toMessage(r) : null;
  }

  async listMessages(conversationId: string, range?: { fromSeq: number; toSeq: number }) {
    const rows = await this.prisma.chatMessage.findMany({
      where: { conversationId, ...(range ? { seq: { gte: range.fromSeq, lte: range.toSeq } } : {}) },
      orderBy: { seq: 'asc' },
    });
    return rows.map(toMessage);
  }

  async pruneConversations(workflowId: string, owner: string, keep: { perOwner: number; perApp: number }) {
    // Newest first; the id breaks ties so that two calls agree on which is older.
    const order = [{ updatedAt: 'desc' as const }, { id: 'desc' as const }];
    const beyond = async (where: { workflowId: string; owner?: string }, skip: number) =>
      (await this.prisma.chatConversation.findMany({ where, orderBy: order, skip, select: { id: true } })).map(
        (r) => r.id,
      );
    const ids = new Set([
      ...(await beyond({ workflowId, owner }, keep.perOwner)),
      ...(await beyond({ workflowId }, keep.perApp)),
    ]);
    if (!ids.size) return 0;
    // Messages go with their conversation (ON DELETE CASCADE).
    const res = await this.prisma.chatConversation.deleteMany({ where: { id: { in: [...ids] } } });
    return res.count;
  }

  async getMessage(workflowId: string, id: string) {
    const r = await this.prisma.chatMessage.findFirst({
      where: { id, conversation: { workflowId } },
      include: { conversation: { select: { owner: true } } },
    });
    return r ? { ...toMessage(r), owner: r.conversation.owner } : null;
  }

  async setFeedback(id: string, feedback: { rating: 1 | -1; comment: string | null }) {
    const res = await this.prisma.chatMessage.updateMany({
      where: { id, role: 'assistant' },
      data: {
        feedbackRating: feedback.rating,
        feedbackComment: feedback.comment === null ? null : safeText(feedback.comment),
        feedbackAt: new Date(),
      },
    });
    if (!res.count) return null;
    const r = await this.prisma.chatMessage.findUnique({ where: { id } });
    return r ? toMessage(r) : null;
  }

  async messageOfRun(runId: string) {
    const r = await this.prisma.chatMessage.findFirst({ where: { runId, role: 'assistant' } });
    return r ? toMessage(r) : null;
  }

  async variablesOf(conversationId: string) {
    const r = await this.prisma.chatConversation.findUnique({
      where: { id: conversationId },
      select: { variables: true },
    });
    if (!r) return null;
    const v = r.variables;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  async writeVariables(conversationId: string, written: Record<string, unknown>) {
    // jsonb `||` replaces the written names and keeps the others, in the one UPDATE (no read-modify-write race).
    const value = pgJson(written);
    await this.prisma.$executeRaw`
      UPDATE chat_conversations SET variables = COALESCE(variables, '{}'::jsonb) || ${value}::jsonb
      WHERE id = ${conversationId}`;
  }
}
