/**
 * Lists of browser origins a publisher names: who may call a workflow's endpoint from a page (`corsOrigins`) and who
 * may frame its chat app (`chat.embedOrigins`). An origin is `scheme://host[:port]` exactly as a browser sends it in
 * Origin; `*` stands for any origin and comes alone.
 */
import { z } from 'zod';

/** `scheme://host[:port]` exactly as a browser sends it in Origin (no path, no trailing slash), or null. */
export function asOrigin(s: string): string | null {
  try {
    const u = new URL(s);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
    return s.replace(/\/$/, '').toLowerCase() === u.origin.toLowerCase() ? u.origin : null;
  } catch {
    return null;
  }
}

/** A list of origins (or `["*"]`), each normalised as the browser sends it, without repeats. */
export const originListSchema = z
  .array(
    z
      .string()
      .trim()
      .max(300)
      .refine((o) => o === '*' || asOrigin(o) !== null, {
        message: 'an origin is scheme://host[:port] with no path, like https://app.example.com, or * for any origin',
      }),
  )
  .max(50, 'at most 50 origins')
  .transform((list) => [...new Set(list.map((o) => (o === '*' ? o : asOrigin(o)!)))])
  .refine((list) => !list.includes('*') || list.length === 1, { message: '* allows every origin: give it alone' });
