/**
 * The request body of POST /api/v1/chat/completions, in two steps: `model` alone first (the slug lives in the body,
 * and the key is checked against that workflow before the rest is validated), then the whole body (at least one
 * message, at least one of role "user", content on every message but the assistant's). Unknown OpenAI fields
 * (temperature, max_tokens, tools, …) are accepted and ignored.
 */
import { z } from 'zod';

const contentPart = z
  .object({ type: z.string().min(1), text: z.string().optional() })
  .loose()
  .refine((p) => p.type !== 'text' || typeof p.text === 'string', {
    message: 'a text part needs a "text" string',
    path: ['text'],
  });

const chatMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
    content: z
      .union([z.string(), z.array(contentPart)])
      .nullable()
      .optional(),
  })
  .loose();

/** Read first: the slug is in the body, and the key is checked against that workflow before the rest is validated. */
export const modelOnlySchema = z
  .object({
    model: z
      .string({ error: 'model (the workflow slug) is required' })
      .min(1, 'model (the workflow slug) is required')
      .max(200),
  })
  .loose();

export const chatBodySchema = z
  .object({
    model: z.string().min(1).max(200),
    messages: z
      .array(chatMessage, { error: 'messages must be an array of messages' })
      .min(1, 'messages must contain at least one message')
      .max(10_000),
    stream: z.boolean().nullable().optional(),
    user: z.string().optional(),
  })
  .loose()
  .superRefine((b, ctx) => {
    b.messages.forEach((m, i) => {
      if (m.role !== 'assistant' && (m.content === undefined || m.content === null)) {
        ctx.addIssue({
          code: 'custom',
          message: `a ${m.role} message needs content`,
          path: ['messages', i, 'content'],
        });
      }
    });
    if (!b.messages.some((m) => m.role === 'user'))
      ctx.addIssue({
        code: 'custom',
        message: 'messages must contain at least one message with role "user"',
        path: ['messages'],
      });
  });
export type ChatBody = z.infer<typeof chatBodySchema>;
export type ChatMessage = ChatBody['messages'][number];
