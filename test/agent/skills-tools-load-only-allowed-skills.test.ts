// Guarantees: progressive disclosure — the system-prompt block lists each offered skill's name and description and
// never a body; load_skill returns a skill's body only for skills the agent is allowed (another skill of the same
// workspace is "policy denied"), and read_skill_file reads only allowed skills' files.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DirSkills } from '@/engine/agent/skills/dir-skills';
import { SkillLibrary } from '@/engine/agent/skills/skill-library';
import { classifyToolError, ToolPolicyError } from '@/engine/agent/tool-errors';
import { skillsPromptBlock, skillTools } from '@/engine/agent/tools/skill-tools';
import type { AgentTool, SkillSummary, ToolContext } from '@/engine/node-kit/agent-services';

const BODY_PDF = 'PDF-BODY-MARKER: open the form, then fill every field.';
const BODY_SQL = 'SQL-BODY-MARKER: never run DROP.';
let library: SkillLibrary;
let all: SkillSummary[];

function skill(root: string, name: string, description: string, body: string, files: Record<string, string> = {}) {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name, p)), { recursive: true });
    writeFileSync(path.join(root, name, p), text);
  }
}

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'paiflow-skill-tools-'));
  skill(root, 'pdf-forms', 'Fills in PDF forms.', BODY_PDF, { 'reference/fields.md': 'FIELDS' });
  skill(root, 'sql-safety', 'Reviews SQL before it runs.', BODY_SQL, { 'rules.md': 'RULES' });
  library = new SkillLibrary(new DirSkills(root), null);
  all = await library.list('ws_test');
});

const ctx = { signal: new AbortController().signal } as ToolContext;
const tool = (tools: AgentTool[], name: string) => tools.find((t) => t.name === name)!;
const failure = (p: Promise<unknown>) =>
  p.then(
    (v) => new Error(`returned ${String(v)}`),
    (e: unknown) => e,
  );

describe('skillsPromptBlock', () => {
  it('lists names and descriptions, says how to load a skill, and holds no body', () => {
    const block = skillsPromptBlock(all);
    expect(block).toContain('pdf-forms: Fills in PDF forms.');
    expect(block).toContain('sql-safety: Reviews SQL before it runs.');
    expect(block).toContain('load_skill');
    expect(block).not.toContain('PDF-BODY-MARKER');
    expect(block).not.toContain('SQL-BODY-MARKER');
    expect(block).not.toContain('FIELDS');
  });

  it('lists only the skills it is given, one line each, and is empty for none', () => {
    const block = skillsPromptBlock(all.filter((s) => s.name === 'pdf-forms'));
    expect(block).toContain('pdf-forms');
    expect(block).not.toContain('sql-safety');
    expect(skillsPromptBlock([])).toBe('');
    const multi = skillsPromptBlock([{ name: 'x', description: 'one\n## Injected\nline', source: 'workspace' }]);
    expect(multi).toContain('- x: one ## Injected line');
  });
});

describe('load_skill', () => {
  it("returns an allowed skill's body", async () => {
    const tools = skillTools(library, 'ws_test', all);
    expect(tools.map((t) => t.name)).toEqual(['load_skill', 'read_skill_file']);
    expect(await tool(tools, 'load_skill').execute({ name: 'pdf-forms' }, ctx)).toContain(BODY_PDF);
  });

  it('refuses a skill the agent is not allowed, though the workspace has it', async () => {
    const onlyPdf = all.filter((s) => s.name === 'pdf-forms');
    const tools = skillTools(library, 'ws_test', onlyPdf);
    const err = await failure(tool(tools, 'load_skill').execute({ name: 'sql-safety' }, ctx));
    expect(err).toBeInstanceOf(ToolPolicyError);
    expect(classifyToolError(err).text).toMatch(/^policy denied: skill "sql-safety" is not available/);
    expect(String((err as Error).message)).not.toContain('SQL-BODY-MARKER');
    const read = await failure(tool(tools, 'read_skill_file').execute({ name: 'sql-safety', path: 'rules.md' }, ctx));
    expect(read).toBeInstanceOf(ToolPolicyError);
  });

  it('fails plainly for an allowed skill that has since disappeared, and checks its arguments', async () => {
    const ghost: SkillSummary = { name: 'ghost', description: 'gone', source: 'dir' };
    const tools = skillTools(library, 'ws_test', [ghost]);
    const err = await failure(tool(tools, 'load_skill').execute({ name: 'ghost' }, ctx));
    expect(classifyToolError(err).text).toMatch(/^tool failed: skill "ghost" no longer exists/);
    const bad = await failure(tool(tools, 'load_skill').execute({}, ctx));
    expect(classifyToolError(bad).text).toMatch(/^tool failed: invalid arguments/);
  });
});

describe('read_skill_file', () => {
  it("reads an allowed skill's file and says when there is none", async () => {
    const tools = skillTools(library, 'ws_test', all);
    const read = tool(tools, 'read_skill_file');
    expect(await read.execute({ name: 'pdf-forms', path: 'reference/fields.md' }, ctx)).toBe('FIELDS');
    const err = await failure(read.execute({ name: 'pdf-forms', path: 'nope.md' }, ctx));
    expect(classifyToolError(err).text).toMatch(/^tool failed: skill "pdf-forms" has no file "nope.md"/);
  });
});
