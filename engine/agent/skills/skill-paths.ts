/**
 * A file's path inside a skill: relative, forward slashes, no `..`, no absolute or drive paths, no control
 * characters. Every read and every upload goes through `skillFilePath`, so a path that could leave the skill folder
 * never reaches the file system or the database.
 */
import { ToolPolicyError } from '../tool-errors';
import { SKILL_LIMITS } from './limits';

/** The normalised path (`./a//b.md` → `a/b.md`); throws ToolPolicyError (reason `path`) for a path that escapes. */
export function skillFilePath(raw: string): string {
  const refuse = (why: string) => new ToolPolicyError(`path "${printable(raw)}" ${why}`, 'path');
  if (typeof raw !== 'string' || !raw.trim()) throw refuse('is empty');
  if (raw.length > SKILL_LIMITS.pathChars) throw refuse(`is longer than ${SKILL_LIMITS.pathChars} characters`);
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw refuse('contains control characters');
  if (raw.includes('\\')) throw refuse('contains a backslash; use "/"');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || raw.startsWith('~'))
    throw refuse('is absolute; give a path inside the skill');
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw refuse('leaves the skill folder ("..")');
  if (!segments.length) throw refuse('names no file');
  if (segments.length > SKILL_LIMITS.pathDepth) throw refuse(`is nested deeper than ${SKILL_LIMITS.pathDepth}`);
  return segments.join('/');
}

const printable = (s: unknown) =>
  String(s)
    .slice(0, 80)
    .replace(/[\u0000-\u001f\u007f]/g, '?');
