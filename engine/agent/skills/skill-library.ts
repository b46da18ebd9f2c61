/**
 * The SkillSource agents read, over SKILLS_DIR (shared by every workspace) and the workspace's uploads. A workspace
 * upload with the same name as a SKILLS_DIR skill replaces it entirely (body and files) for that workspace only.
 * Names that are not skill names are "no such skill" before anything is looked up.
 */
import type { SkillSource, SkillSummary } from '../../node-kit/agent-services';
import type { DirSkills } from './dir-skills';
import { SKILL_NAME_RE } from './limits';
import { skillFilePath } from './skill-paths';
import type { SkillDetail, SkillUploadStore, SkillView } from './types';

export class SkillLibrary implements SkillSource {
  constructor(
    readonly dir: DirSkills | null,
    readonly uploads: SkillUploadStore | null,
  ) {}

  async list(workspaceId: string): Promise<SkillSummary[]> {
    return (await this.views(workspaceId, { files: false })).map(({ name, description, source }) => ({
      name,
      description,
      source,
    }));
  }

  async body(workspaceId: string, name: string): Promise<string | null> {
    if (!SKILL_NAME_RE.test(name)) return null;
    const up = await this.uploads?.get(workspaceId, name);
    if (up) return up.body;
    return (await this.dir?.get(name))?.body ?? null;
  }

  async readFile(workspaceId: string, name: string, filePath: string): Promise<string | null> {
    const rel = skillFilePath(filePath);
    if (!SKILL_NAME_RE.test(name)) return null;
    const up = await this.uploads?.get(workspaceId, name);
    if (up) return rel === 'SKILL.md' ? up.skillMd : this.uploads!.file(workspaceId, name, rel);
    return this.dir ? this.dir.readFile(name, rel) : null;
  }

  /** Every skill the workspace has, by name; `files: false` skips listing SKILLS_DIR folders (agents need no files). */
  async views(workspaceId: string, opts: { files?: boolean } = {}): Promise<SkillView[]> {
    const [dirSkills, uploads] = await Promise.all([this.dir?.list() ?? [], this.uploads?.list(workspaceId) ?? []]);
    const byName = new Map<string, SkillView>();
    for (const d of dirSkills)
      byName.set(d.name, {
        name: d.name,
        description: d.description,
        source: 'dir',
        files: opts.files === false ? [] : await this.dir!.files(d.name),
        updatedAt: d.updatedAt,
      });
    for (const u of uploads)
      byName.set(u.name, {
        name: u.name,
        description: u.description,
        source: 'workspace',
        files: u.files,
        updatedAt: u.updatedAt,
        ...(byName.has(u.name) ? { shadows: true } : {}),
      });
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async detail(workspaceId: string, name: string): Promise<SkillDetail | null> {
    if (!SKILL_NAME_RE.test(name)) return null;
    const up = await this.uploads?.get(workspaceId, name);
    if (up) {
      const shadows = !!(await this.dir?.get(name));
      const { skillMd: _skillMd, ...rest } = up;
      return { ...rest, source: 'workspace', ...(shadows ? { shadows } : {}) };
    }
    const d = await this.dir?.get(name);
    if (!d) return null;
    return {
      name: d.name,
      description: d.description,
      source: 'dir',
      body: d.body,
      files: await this.dir!.files(name),
      updatedAt: d.updatedAt,
    };
  }
}
