/**
 * Beyond the SkillSource the agent reads (node-kit/agent-services.ts): the workspace uploads' persistence and the views
 * the settings API shows.
 */
import type { SkillSummary } from '../../node-kit/agent-services';

export interface SkillFileInfo {
  path: string;
  bytes: number;
}

/** A skill as the settings API shows it. `shadows`: a workspace upload that hides a SKILLS_DIR skill of that name. */
export interface SkillView extends SkillSummary {
  files: SkillFileInfo[];
  shadows?: boolean;
  updatedAt: string | null;
}

export interface SkillDetail extends SkillView {
  body: string;
}

/** A validated upload, ready to store (paths normalised, limits checked). */
export interface SkillUpload {
  name: string;
  description: string;
  skillMd: string;
  /** Extra files by normalised path (no SKILL.md). */
  files: Record<string, string>;
}

export interface StoredSkillSummary {
  name: string;
  description: string;
  files: SkillFileInfo[];
  updatedAt: string;
}

export interface StoredSkill extends StoredSkillSummary {
  skillMd: string;
  body: string;
}

/** Workspace uploads. Every method is scoped by workspace: another workspace's skill does not exist. */
export interface SkillUploadStore {
  list(workspaceId: string): Promise<StoredSkillSummary[]>;
  get(workspaceId: string, name: string): Promise<StoredSkill | null>;
  /** One extra file's text; null when the skill or the file is missing. */
  file(workspaceId: string, name: string, path: string): Promise<string | null>;
  /** Creates or replaces the skill `upload.name` (with all its files); `created`: it did not exist. */
  put(workspaceId: string, upload: SkillUpload, actorId?: string): Promise<{ created: boolean }>;
  count(workspaceId: string): Promise<number>;
  delete(workspaceId: string, name: string): Promise<boolean>;
}
