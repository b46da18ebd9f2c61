/**
 * Size limits of a skill, the same for SKILLS_DIR and uploads: the body goes to the model whole when it loads the
 * skill, files one at a time, so each is bounded; a skill and a workspace are bounded so that listing stays cheap.
 */
export const SKILL_LIMITS = {
  /** SKILL.md, front matter included. */
  skillMdBytes: 100 * 1024,
  /** One extra file. */
  fileBytes: 256 * 1024,
  /** Extra files of one skill (SKILL.md not counted). */
  files: 64,
  /** SKILL.md and every extra file together. */
  totalBytes: 1024 * 1024,
  /** A file's path inside its skill. */
  pathChars: 200,
  pathDepth: 8,
  descriptionChars: 1024,
  /** Uploaded skills of one workspace. */
  perWorkspace: 200,
  /** Skill folders read from SKILLS_DIR. */
  inDir: 500,
} as const;

export const SKILL_NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
