/**
 * Agent skills as tools, with progressive disclosure: the system prompt lists only each allowed skill's name and
 * description (skillsPromptBlock); the model calls load_skill for a skill's instructions when a task matches, and
 * read_skill_file for a file those instructions point to. Only the skills the node allows can be loaded, whatever
 * else the workspace has.
 */
import { z } from 'zod';
import { ToolPolicyError } from '../tool-errors';
import { skillFilePath } from '../skills/skill-paths';
import type { AgentTool, SkillSource, SkillSummary } from '../../node-kit/agent-services';
import { defineTool } from './define-tool';

export const LOAD_SKILL_TOOL = 'load_skill';
export const READ_SKILL_FILE_TOOL = 'read_skill_file';

export function skillTools(source: SkillSource, workspaceId: string, allowed: SkillSummary[]): AgentTool[] {
  const names = new Set(allowed.map((s) => s.name));
  const listed = allowed.map((s) => s.name).join(', ') || 'none';
  const check = (name: string) => {
    if (!names.has(name)) throw new ToolPolicyError(`skill "${name}" is not available to this agent (${listed})`);
  };
  const loadSkill = defineTool({
    name: LOAD_SKILL_TOOL,
    description:
      "Loads a skill's instructions (its SKILL.md). Call it before a task that matches a skill's description, " +
      `then follow them. Skills: ${listed}.`,
    schema: z.object({ name: z.string().min(1).max(64).describe('the skill name, as listed') }),
    async run({ name }) {
      check(name);
      const body = await source.body(workspaceId, name);
      if (body === null) throw new Error(`skill "${name}" no longer exists`);
      return body.trim() ? body : `(skill "${name}" has no instructions beyond its description)`;
    },
  });
  const readSkillFile = defineTool({
    name: READ_SKILL_FILE_TOOL,
    description:
      'Reads a file of a skill (e.g. "reference/forms.md") as text, when its instructions mention it. ' +
      'Paths are relative to the skill folder.',
    schema: z.object({
      name: z.string().min(1).max(64).describe('the skill name'),
      path: z.string().min(1).max(400).describe('path of the file inside the skill'),
    }),
    async run({ name, path }) {
      check(name);
      const rel = skillFilePath(path);
      const text = await source.readFile(workspaceId, name, rel);
      if (text === null) throw new Error(`skill "${name}" has no file "${rel}"`);
      return text;
    },
  });
  return [loadSkill, readSkillFile];
}

/** The system-prompt block: names and descriptions only (never bodies); '' when there are no skills. */
export function skillsPromptBlock(skills: SkillSummary[]): string {
  if (!skills.length) return '';
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  return [
    '## Skills',
    'You have these skills. Each line is a skill name and what it is for; its instructions are not shown here.',
    ...skills.map((s) => `- ${s.name}: ${oneLine(s.description)}`),
    `When a task matches a skill, first call ${LOAD_SKILL_TOOL} with its name and follow the instructions it ` +
      `returns; use ${READ_SKILL_FILE_TOOL} for files those instructions mention.`,
  ].join('\n');
}
