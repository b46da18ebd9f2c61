/**
 * SKILL.md: YAML front matter between `---` lines, then the Markdown body. `name` follows Anthropic's rule
 * (lower-case letters, digits and hyphens, at most 64), `description` is 1–1024 characters of plain text (it goes
 * into every system prompt that offers the skill, so no markup tags). Other front matter keys (license,
 * allowed-tools, metadata…) are kept but not interpreted. Every problem is a PaiError SKILL_INVALID naming where.
 */
import { parseDocument } from 'yaml';
import { PaiError } from '../../errors';
import { checkYamlShape } from '../../uploads/yaml-document';
import { SKILL_LIMITS, SKILL_NAME_RE } from './limits';

/** Front matter is a handful of keys (name, description, license, allowed-tools, metadata). */
const FRONT_MATTER_LIMITS = { maxNodes: 1000, maxDepth: 32 };

export interface ParsedSkillMd {
  name: string;
  description: string;
  /** The Markdown after the front matter. */
  body: string;
  /** The other front matter keys, as parsed. */
  meta: Record<string, unknown>;
}

export function skillInvalid(message: string, path: string): PaiError {
  return new PaiError('SKILL_INVALID', message, { path });
}

const FRONT_MATTER_RE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;

/** `where`: how errors name the file (`files["SKILL.md"]`, `SKILLS_DIR/pdf/SKILL.md`); fields are appended to it. */
export function parseSkillMd(text: string, where = 'SKILL.md'): ParsedSkillMd {
  if (Buffer.byteLength(text, 'utf8') > SKILL_LIMITS.skillMdBytes)
    throw new PaiError('SKILL_TOO_LARGE', `SKILL.md is larger than ${SKILL_LIMITS.skillMdBytes} bytes`, {
      path: where,
    });
  if (text.includes('\u0000')) throw skillInvalid('SKILL.md is not text', where);
  const src = text.replace(/^\uFEFF/, '');
  const m = src.startsWith('---') ? FRONT_MATTER_RE.exec(src) : null;
  if (!m || m.index !== 0)
    throw skillInvalid('SKILL.md must start with YAML front matter between "---" lines (name, description)', where);
  // Bounded before it is parsed (on the request path of an upload): a few keys, never thousands of values or levels.
  checkYamlShape(m[1], FRONT_MATTER_LIMITS, { path: where });
  const doc = parseDocument(m[1], { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length)
    throw skillInvalid(`front matter is not valid YAML: ${firstLine(doc.errors[0].message)}`, where);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 0 });
  } catch (e) {
    throw skillInvalid(`front matter is not valid YAML: ${firstLine((e as Error).message)}`, where);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw skillInvalid('front matter must be a mapping with name and description', where);
  const { name, description, ...meta } = data as Record<string, unknown>;

  if (typeof name !== 'string' || !name) throw skillInvalid('front matter needs a "name"', `${where}.name`);
  if (!SKILL_NAME_RE.test(name))
    throw skillInvalid(
      `name "${name.slice(0, 80)}" must be 1–64 lower-case letters, digits or hyphens, starting with a letter or digit`,
      `${where}.name`,
    );
  if (typeof description !== 'string' || !description.trim())
    throw skillInvalid('front matter needs a non-empty "description"', `${where}.description`);
  const desc = description.trim();
  if (desc.length > SKILL_LIMITS.descriptionChars)
    throw skillInvalid(
      `description is ${desc.length} characters; at most ${SKILL_LIMITS.descriptionChars}`,
      `${where}.description`,
    );
  if (/<\/?[A-Za-z][^>]*>/.test(desc))
    throw skillInvalid('description must be plain text (no markup tags)', `${where}.description`);
  return { name, description: desc, body: src.slice(m[0].length).replace(/^(?:[ \t]*\r?\n)+/, ''), meta };
}

/** The body of a SKILL.md validated earlier (an upload); if it no longer passes (stricter limits), the whole text. */
export function bodyOf(skillMd: string): string {
  try {
    return parseSkillMd(skillMd).body;
  } catch {
    return skillMd;
  }
}

const firstLine = (s: string) => s.split('\n')[0].slice(0, 200);
