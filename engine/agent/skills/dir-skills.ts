/**
 * Skills from SKILLS_DIR: one folder per skill, named like the skill, holding SKILL.md and any other files. Nothing
 * is loaded at start-up: each lookup stats SKILL.md and re-parses it only when its size or mtime changed, so an
 * edited, added or removed skill shows on the next list without a restart, and a list costs one readdir plus one
 * stat per skill. A folder with a broken SKILL.md is left out (and reported by `problems()`); it never breaks the
 * others.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { PaiError } from '../../errors';
import { ToolPolicyError } from '../tool-errors';
import { SKILL_LIMITS, SKILL_NAME_RE } from './limits';
import { parseSkillMd, type ParsedSkillMd } from './skill-md';
import { skillFilePath } from './skill-paths';
import type { SkillFileInfo } from './types';

export interface DirSkill extends ParsedSkillMd {
  skillMd: string;
  updatedAt: string;
}

export interface SkillProblem {
  path: string;
  code: string;
  message: string;
}

interface Cached {
  size: number;
  mtimeMs: number;
  skill?: DirSkill;
  problem?: SkillProblem;
}

export class DirSkills {
  private readonly cache = new Map<string, Cached>();

  constructor(readonly root: string) {}

  /** The valid skills, by name. */
  async list(): Promise<DirSkill[]> {
    const folders = await this.folders();
    for (const f of [...this.cache.keys()]) if (!folders.includes(f)) this.cache.delete(f);
    const out: DirSkill[] = [];
    for (const f of folders) {
      if (!SKILL_NAME_RE.test(f)) {
        if (!this.cache.has(f))
          this.cache.set(f, {
            size: -1,
            mtimeMs: -1,
            problem: {
              path: `SKILLS_DIR/${f}`,
              code: 'SKILL_INVALID',
              message: 'a skill folder is named like its skill: lower-case letters, digits and hyphens',
            },
          });
        continue;
      }
      const s = await this.get(f);
      if (s) out.push(s);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Folders whose SKILL.md is broken (or whose name is not a skill name), from the last list. */
  problems(): SkillProblem[] {
    return [...this.cache.values()].flatMap((c) => (c.problem ? [c.problem] : []));
  }

  async get(name: string): Promise<DirSkill | null> {
    if (!SKILL_NAME_RE.test(name)) return null;
    const file = path.join(this.root, name, 'SKILL.md');
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) {
      this.cache.delete(name);
      return null;
    }
    const hit = this.cache.get(name);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.skill ?? null;
    const entry: Cached = { size: st.size, mtimeMs: st.mtimeMs };
    const where = `SKILLS_DIR/${name}/SKILL.md`;
    try {
      if (st.size > SKILL_LIMITS.skillMdBytes)
        throw new PaiError('SKILL_TOO_LARGE', `SKILL.md is larger than ${SKILL_LIMITS.skillMdBytes} bytes`, {
          path: where,
        });
      const text = await readFile(file, 'utf8');
      const parsed = parseSkillMd(text, where);
      if (parsed.name !== name)
        throw new PaiError('SKILL_INVALID', `name "${parsed.name}" must match its folder "${name}"`, {
          path: `${where}.name`,
        });
      entry.skill = { ...parsed, skillMd: text, updatedAt: st.mtime.toISOString() };
    } catch (e) {
      const pe = e instanceof PaiError ? e : null;
      entry.problem = {
        path: pe?.path ?? where,
        code: pe?.code ?? 'SKILL_UNREADABLE',
        message: (e as Error).message,
      };
      if (hit?.problem?.message !== entry.problem.message)
        console.warn(`[paiflow] skill ${where} is left out: ${entry.problem.message}`);
    }
    this.cache.set(name, entry);
    return entry.skill ?? null;
  }

  /** One file of the skill as text; null when the skill or file is missing. Refuses paths that leave the folder. */
  async readFile(name: string, rawPath: string): Promise<string | null> {
    const rel = skillFilePath(rawPath);
    if (!(await this.get(name))) return null;
    const dir = await realpath(path.join(this.root, name)).catch(() => null);
    if (!dir) return null;
    let real: string;
    try {
      real = await realpath(path.join(dir, rel));
    } catch {
      return null;
    }
    if (!inside(dir, real)) throw new ToolPolicyError(`path "${rel}" leads out of the skill folder`, 'path');
    const st = await stat(real);
    if (!st.isFile()) return null;
    if (st.size > SKILL_LIMITS.fileBytes)
      throw new PaiError('SKILL_FILE_TOO_LARGE', `"${rel}" is larger than ${SKILL_LIMITS.fileBytes} bytes`);
    return asText(await readFile(real), rel);
  }

  /** The skill's files besides SKILL.md (no dot-files, nothing reached through a link that leaves the folder). */
  async files(name: string): Promise<SkillFileInfo[]> {
    if (!(await this.get(name))) return [];
    const dir = await realpath(path.join(this.root, name)).catch(() => null);
    if (!dir) return [];
    const out: SkillFileInfo[] = [];
    const walk = async (abs: string, rel: string, depth: number) => {
      const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (out.length >= SKILL_LIMITS.files || e.name.startsWith('.')) continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (r === 'SKILL.md') continue;
        const real = await realpath(path.join(abs, e.name)).catch(() => null);
        if (!real || !inside(dir, real)) continue;
        const st = await stat(real).catch(() => null);
        if (st?.isDirectory() && depth < SKILL_LIMITS.pathDepth) await walk(real, r, depth + 1);
        else if (st?.isFile()) out.push({ path: r, bytes: st.size });
      }
    };
    await walk(dir, '', 1);
    return out;
  }

  /** Skill folders under the root (hidden ones skipped); none when SKILLS_DIR does not exist. */
  private async folders(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') console.warn(`[paiflow] SKILLS_DIR ${this.root} cannot be read: ${e.message}`);
      return [];
    });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .slice(0, SKILL_LIMITS.inDir);
  }
}

const inside = (dir: string, p: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** UTF-8 text or an error: a skill file handed to the model must be text. */
export function asText(buf: Buffer, rel: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new PaiError('SKILL_FILE_NOT_TEXT', `"${rel}" is not UTF-8 text`);
  }
  if (text.includes('\u0000')) throw new PaiError('SKILL_FILE_NOT_TEXT', `"${rel}" is not text`);
  return text;
}
