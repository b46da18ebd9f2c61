/**
 * Validates an upload `{ files: { "SKILL.md": "...", "reference/x.md": "..." } }`: SKILL.md present and valid, every
 * path inside the skill, text only, within the size limits. Errors are PaiErrors naming the file
 * (`files["reference/x.md"]`) and, for SKILL.md, the field.
 */
import { PaiError } from '../../errors';
import { ToolPolicyError } from '../tool-errors';
import { SKILL_LIMITS } from './limits';
import { parseSkillMd, skillInvalid } from './skill-md';
import { skillFilePath } from './skill-paths';
import type { SkillUpload } from './types';

const at = (path: string) => `files[${JSON.stringify(path)}]`;
const tooLarge = (message: string, path: string) => new PaiError('SKILL_TOO_LARGE', message, { path });

export function validateSkillUpload(files: unknown): SkillUpload {
  if (!files || typeof files !== 'object' || Array.isArray(files))
    throw skillInvalid('"files" must be an object of path → text, with a "SKILL.md"', 'files');
  const entries = Object.entries(files as Record<string, unknown>);
  const skillMdKey = entries.find(([k]) => checkPath(k).path === 'SKILL.md')?.[0];
  if (skillMdKey === undefined) throw skillInvalid('a skill needs a SKILL.md', at('SKILL.md'));
  if (entries.length - 1 > SKILL_LIMITS.files)
    throw tooLarge(`a skill has at most ${SKILL_LIMITS.files} files besides SKILL.md`, 'files');
  let total = 0;
  const out: Record<string, string> = {};
  let skillMd = '';
  for (const [raw, content] of entries) {
    if (typeof content !== 'string') throw skillInvalid('file contents must be text', at(raw));
    const { path: p, problem } = checkPath(raw);
    if (p === undefined) throw skillInvalid(problem!, at(raw));
    const bytes = Buffer.byteLength(content, 'utf8');
    total += bytes;
    if (raw === skillMdKey) {
      skillMd = content;
      continue;
    }
    if (p === 'SKILL.md' || p in out) throw skillInvalid(`"${p}" is given twice`, at(raw));
    if (bytes > SKILL_LIMITS.fileBytes)
      throw tooLarge(`a file may have at most ${SKILL_LIMITS.fileBytes} bytes`, at(raw));
    if (content.includes('\u0000')) throw skillInvalid('files must be text (this one has NUL bytes)', at(raw));
    out[p] = content;
  }
  if (total > SKILL_LIMITS.totalBytes)
    throw tooLarge(`a skill may have at most ${SKILL_LIMITS.totalBytes} bytes in all`, 'files');
  const parsed = parseSkillMd(skillMd, at('SKILL.md'));
  return { name: parsed.name, description: parsed.description, skillMd, files: out };
}

function checkPath(raw: string): { path?: string; problem?: string } {
  try {
    return { path: skillFilePath(raw) };
  } catch (e) {
    if (e instanceof ToolPolicyError) return { problem: e.message };
    throw e;
  }
}
