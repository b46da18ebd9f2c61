/** Request bodies of the account routes. */
import { z } from 'zod';
import { nameSchema as names } from '@/engine/text/names';
import { ROLES } from './policy';

export const nameSchema = names(100);
export const emailSchema = z.email('a valid e-mail address is required').max(254);
export const passwordSchema = z
  .string()
  .min(8, 'the password needs at least 8 characters')
  .max(200, 'the password may have at most 200 characters');

export const setupSchema = z.strictObject({ email: emailSchema, password: passwordSchema, name: nameSchema });
export const loginSchema = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(200) });
export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1).max(200),
  newPassword: passwordSchema,
});
export const tokenSchema = z.strictObject({ name: nameSchema, workspaceId: z.string().min(1).max(100).optional() });
export const workspaceSchema = z.strictObject({ name: nameSchema });
export const switchWorkspaceSchema = z.strictObject({ workspaceId: z.string().min(1).max(100) });
export const invitationSchema = z.strictObject({ email: emailSchema, role: z.enum(ROLES).default('editor') });
export const acceptInviteSchema = z.strictObject({
  token: z.string().min(1).max(200),
  name: nameSchema,
  password: passwordSchema,
});
export const roleSchema = z.strictObject({ role: z.enum(ROLES) });
