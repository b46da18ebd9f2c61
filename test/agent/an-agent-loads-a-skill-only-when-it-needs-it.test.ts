// Guarantees: an Agent with `skills` is told each skill's name and description but not its body; the body reaches the
// model only when the model calls load_skill, and the node's output and trace say which skills were loaded. A skill
// the node did not select cannot be loaded, and an unknown skill name is reported, never silently used.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirSkills } from '@/engine/agent/skills/dir-skills';
import { SkillLibrary } from '@/engine/agent/skills/skill-library';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { agentGraph } from './support/durable-agent';

const BODY = 'Always open a report with the sentence "Figures are in CNY." and use tables.';
const SECRET_BODY = 'The other skill: never shown to this agent.';

function skillDir(root: string, name: string, description: string, body: string) {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

describe('agent skills, by progressive disclosure', () => {
  let fake: FakeOpenAi;
  let h: Harness;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'paiflow-skills-'));
    skillDir(root, 'report-style', 'How our finance reports are written', BODY);
    skillDir(root, 'other-skill', 'Something this agent does not get', SECRET_BODY);
    fake = await startFakeOpenAi();
    h = await createHarness('pglite', {
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      agent: { skills: new SkillLibrary(new DirSkills(root), null) },
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sees names and descriptions, gets a body only by loading it', async () => {
    fake.requests.length = 0;
    fake.script(
      { toolCalls: [{ name: 'load_skill', arguments: { name: 'report-style' } }] },
      { toolCalls: [{ name: 'load_skill', arguments: { name: 'other-skill' } }] },
      { text: 'Figures are in CNY.' },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: [], skills: ['report-style', 'no-such-skill'] }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');

    const first = JSON.stringify(fake.requests[0].messages);
    expect(first).toContain('report-style');
    expect(first).toContain('How our finance reports are written');
    expect(first).not.toContain(BODY);
    expect(first).not.toContain('other-skill');
    expect(fake.requests[0].tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual([
      'load_skill',
      'read_skill_file',
    ]);

    const toolMessages = (i: number) =>
      fake.requests[i].messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m);
    expect(toolMessages(1).at(-1).content).toContain(BODY);
    // The skill the node did not select is refused, and its body never reaches the model.
    expect(toolMessages(2).at(-1).content).toContain('policy denied');
    expect(JSON.stringify(fake.requests)).not.toContain(SECRET_BODY);

    const a1 = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
    expect((a1.output as { skillsLoaded: string[] }).skillsLoaded).toEqual(['report-style']);
    const events = await h.events(run.id);
    expect(events.filter((e) => e.type === 'tool.called').map((e) => e.data.args)).toEqual([
      { name: 'report-style' },
      { name: 'other-skill' },
    ]);
    const warnings = events
      .filter((e) => e.type === 'node.progress' && e.data.warnings)
      .flatMap((e) => e.data.warnings);
    expect(warnings).toEqual([expect.stringContaining('no-such-skill')]);
  });
});
