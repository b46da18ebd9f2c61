/**
 * Agent skills of the app: SKILLS_DIR (read from the folder, shared by every workspace) and each workspace's uploads
 * (in the database), behind one SkillLibrary that the Agent node reads and the settings API manages. Uploads and
 * deletions are audited.
 */
import path from 'node:path';
import { PaiError } from '@/engine/errors';
import { DirSkills } from '@/engine/agent/skills/dir-skills';
import { SKILL_LIMITS } from '@/engine/agent/skills/limits';
import { SkillLibrary } from '@/engine/agent/skills/skill-library';
import { validateSkillUpload } from '@/engine/agent/skills/skill-upload';
import type { SkillDetail, SkillUploadStore, SkillView } from '@/engine/agent/skills/types';
import type { Stores } from '@/engine/store/app/stores';
import { audit, type AuditActor } from '../auth/audit';

export class SkillsService {
  readonly library: SkillLibrary;
  private readonly store: SkillUploadStore;

  /** `skillsDir`: SKILLS_DIR (relative to the working folder); unset: uploads only. */
  constructor(
    private readonly stores: Pick<Stores, 'skills' | 'audit'>,
    skillsDir?: string,
  ) {
    this.store = stores.skills;
    this.library = new SkillLibrary(skillsDir ? new DirSkills(path.resolve(skillsDir)) : null, this.store);
  }

  list(workspaceId: string): Promise<SkillView[]> {
    return this.library.views(workspaceId);
  }

  async get(workspaceId: string, name: string): Promise<SkillDetail> {
    const skill = await this.library.detail(workspaceId, name);
    if (!skill) throw notFound(name);
    return skill;
  }

  /** `files`: path → text, SKILL.md included. Creates the skill, or replaces the workspace's upload of that name. */
  async upload(
    workspaceId: string,
    files: unknown,
    actor: AuditActor,
    ip?: string,
  ): Promise<{ skill: SkillDetail; created: boolean }> {
    const upload = validateSkillUpload(files);
    const exists = await this.store.get(workspaceId, upload.name);
    if (!exists && (await this.store.count(workspaceId)) >= SKILL_LIMITS.perWorkspace)
      throw new PaiError('SKILL_LIMIT_REACHED', `a workspace may upload at most ${SKILL_LIMITS.perWorkspace} skills`);
    const { created } = await this.store.put(workspaceId, upload, actor.id);
    await audit(this.stores.audit, {
      action: created ? 'skill.uploaded' : 'skill.replaced',
      actor,
      workspaceId,
      target: upload.name,
      ip,
      data: { files: Object.keys(upload.files).length },
    });
    return { skill: await this.get(workspaceId, upload.name), created };
  }

  /** Deletes the workspace's upload; a SKILLS_DIR skill of that name (if any) shows again. */
  async delete(workspaceId: string, name: string, actor: AuditActor, ip?: string): Promise<void> {
    const skill = await this.library.detail(workspaceId, name);
    if (!skill) throw notFound(name);
    if (skill.source === 'dir')
      throw new PaiError('SKILL_READ_ONLY', `skill "${name}" comes from SKILLS_DIR; change it in that folder`);
    if (!(await this.store.delete(workspaceId, name))) throw notFound(name);
    await audit(this.stores.audit, { action: 'skill.deleted', actor, workspaceId, target: name, ip });
  }
}

function notFound(name: string): PaiError {
  return new PaiError('SKILL_NOT_FOUND', `skill "${name.slice(0, 80)}" not found`);
}
