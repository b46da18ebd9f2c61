// Guarantees: context compaction never separates an assistant message with tool_calls from its tool results,
// keeps the head (system + first task message) and the last 3 user messages verbatim, keeps the current turn's last
// rounds verbatim, only replaces a contiguous older span by a summary, and shrinks the request when it can.
// Property test over random transcripts (seeded PRNG, no extra deps), plus one end-to-end run through the node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactMessages, ROUNDS_SUMMARY_PREFIX, SUMMARY_PREFIX } from '@/engine/agent/compaction';
import { estimateRequestTokens } from '@/engine/agent/tokens';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import type { ChatMessage } from '@/engine/llm/types';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, spyTool, type AgentHarness } from './support/agent-harness';

/** mulberry32: small, fast, good enough for test case generation. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTranscript(rand: () => number, id: { n: number }): ChatMessage[] {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const text = (max: number) => 'w'.repeat(int(1, max));
  const out: ChatMessage[] = [];
  if (rand() < 0.8) out.push({ role: 'system', content: `system ${text(200)}` });
  const turns = int(1, 7);
  for (let t = 0; t < turns; t++) {
    out.push({ role: 'user', content: `user ${t} ${text(400)}` });
    const rounds = int(0, 6);
    for (let r = 0; r < rounds; r++) {
      const calls = int(0, 4);
      if (calls === 0 || r === rounds - 1) {
        out.push({ role: 'assistant', content: `answer ${text(300)}` });
        if (calls === 0) continue;
      }
      const toolCalls = Array.from({ length: calls }, () => ({
        id: `call_${id.n++}`,
        name: `tool_${int(1, 3)}`,
        arguments: JSON.stringify({ q: text(80) }),
      }));
      out.push({ role: 'assistant', content: rand() < 0.3 ? `thinking ${text(100)}` : null, toolCalls });
      for (const c of toolCalls) out.push({ role: 'tool', toolCallId: c.id, content: `result ${text(1500)}` });
    }
  }
  return out;
}

function checkPairs(ms: ChatMessage[]) {
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (m.role === 'assistant' && m.toolCalls?.length) {
      const ids = m.toolCalls.map((c) => c.id);
      const following = ms.slice(i + 1, i + 1 + ids.length);
      expect(following.map((f) => (f.role === 'tool' ? f.toolCallId : `<${f.role}>`))).toEqual(ids);
    }
    if (m.role === 'tool') {
      // Walk back over sibling tool messages to the assistant that asked for it.
      let j = i - 1;
      while (j >= 0 && ms[j].role === 'tool') j--;
      const owner = ms[j];
      expect(owner?.role).toBe('assistant');
      expect((owner as { toolCalls?: { id: string }[] }).toolCalls?.some((c) => c.id === m.toolCallId)).toBe(true);
    }
  }
}

const isSummary = (m: ChatMessage) =>
  typeof m.content === 'string' &&
  (m.content.startsWith(SUMMARY_PREFIX) || m.content.startsWith(ROUNDS_SUMMARY_PREFIX));

describe('compaction', () => {
  it('property: tool pairs intact, head and last 3 user messages verbatim, originals kept in order', async () => {
    const rand = prng(20261129);
    const id = { n: 0 };
    let compactedCases = 0;
    let turnCases = 0;
    let roundCases = 0;
    for (let k = 0; k < 400; k++) {
      const input = randomTranscript(rand, id);
      const before = estimateRequestTokens(input);
      const limit = Math.max(50, Math.floor(before * (0.2 + rand() * 0.9)));
      const summarised: ChatMessage[][] = [];
      const r = await compactMessages(input, {
        limitTokens: limit,
        summarise: async (ms) => {
          summarised.push(ms);
          return `summary of ${ms.length}`;
        },
      });
      const out = r.messages;

      checkPairs(input);
      checkPairs(out);
      // Head: leading system messages and the first user message are untouched.
      const firstUser = input.findIndex((m) => m.role === 'user');
      expect(out.slice(0, firstUser + 1)).toEqual(input.slice(0, firstUser + 1));
      // The last 3 user messages survive verbatim, in order.
      const users = (ms: ChatMessage[]) => ms.filter((m) => m.role === 'user' && !isSummary(m));
      expect(users(out).slice(-3)).toEqual(users(input).slice(-3));
      // Everything not a summary is an original message, in the original order (a subsequence), and the very
      // last message is always kept.
      const originals = out.filter((m) => !isSummary(m));
      let p = 0;
      for (const m of originals) {
        while (p < input.length && input[p] !== m) p++;
        expect(p).toBeLessThan(input.length);
        p++;
      }
      expect(out.at(-1)).toBe(input.at(-1));
      // Summaries replace exactly what was summarised (a summary that would not shrink anything is dropped), and
      // the result is smaller.
      expect(originals.length + r.replaced).toBe(input.length);
      expect(summarised.reduce((n, s) => n + s.length, 0)).toBeGreaterThanOrEqual(r.replaced);
      for (const s of summarised) checkPairs(s);
      // Whole user turns: without a rounds summary, everything from the 3rd-last user message on is verbatim;
      // with one, the current turn's last 2 rounds are.
      const suffixFrom = (ms: ChatMessage[], pick: (m: ChatMessage) => boolean, nth: number) => {
        const idx = ms.map((m, i) => (pick(m) ? i : -1)).filter((i) => i >= 0);
        return idx.length >= nth ? ms.slice(idx[idx.length - nth]) : ms;
      };
      const isRealUser = (m: ChatMessage) => m.role === 'user' && !isSummary(m);
      if (out.some((m) => m.content?.startsWith(ROUNDS_SUMMARY_PREFIX))) {
        roundCases++;
        const isRound = (m: ChatMessage) => m.role === 'assistant' && !isSummary(m);
        expect(suffixFrom(out, isRound, 2)).toEqual(suffixFrom(input, isRound, 2));
      } else if (input.filter(isRealUser).length >= 3) {
        expect(suffixFrom(out, isRealUser, 3)).toEqual(suffixFrom(input, isRealUser, 3));
      }
      if (out.some((m) => m.content?.startsWith(SUMMARY_PREFIX))) turnCases++;
      if (r.compacted) {
        compactedCases++;
        expect(r.afterTokens).toBeLessThan(r.beforeTokens);
      } else {
        expect(out).toBe(input);
      }
      if (before <= limit) expect(r.compacted).toBe(false);
    }
    // The property was really exercised, by both passes.
    expect(compactedCases).toBeGreaterThan(100);
    expect(turnCases).toBeGreaterThan(30);
    expect(roundCases).toBeGreaterThan(30);
  });

  describe('through the Agent node', () => {
    let fake: FakeOpenAi;
    let h: AgentHarness;
    const bulky = spyTool('bulky', async (args) => `${String(args.page)}:${'x'.repeat(3000)}`);

    beforeAll(async () => {
      fake = await startFakeOpenAi();
      h = await createAgentHarness({
        llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
        tools: [bulky.tool],
        memory: false,
      });
    });
    afterAll(async () => {
      await h?.close();
      await fake?.close();
    });

    it('summarises older rounds with the LLM when the window fills, keeping pairs and the task', async () => {
      // Answer by looking at the request: summary requests get a summary, agent rounds page through `bulky`.
      let page = 0;
      fake.setDefault((body) => {
        if (String(body.messages?.[0]?.content ?? '').startsWith('You compress'))
          return { text: 'SUMMARY: pages 1.. were fetched, all x.' };
        page++;
        return page > 6 ? { text: 'read everything' } : { toolCalls: [{ name: 'bulky', arguments: { page } }] };
      });
      try {
        const wf = await h.createWorkflow(
          agentGraph({ tools: ['bulky'], limits: { contextWindow: 3000, maxRounds: 20 } }),
        );
        const run = await h.runToEnd(wf, { question: 'Read all the pages.' });
        expect(run.error).toBeNull();
        expect(run.outputs?.answer).toBe('read everything');
        const agentRequests = fake.requests.filter(
          (r) => !String(r.messages[0]?.content ?? '').startsWith('You compress'),
        );
        const summaryRequests = fake.requests.filter((r) =>
          String(r.messages[0]?.content ?? '').startsWith('You compress'),
        );
        expect(summaryRequests.length).toBeGreaterThan(0);
        expect(summaryRequests[0].tools).toBeUndefined();
        for (const req of agentRequests) {
          expect(req.messages[0]).toEqual({ role: 'user', content: 'Read all the pages.' });
          const ms = req.messages;
          for (let i = 0; i < ms.length; i++) {
            if (ms[i].tool_calls) {
              ms[i].tool_calls.forEach((c: any, k: number) =>
                expect(ms[i + 1 + k]).toMatchObject({ role: 'tool', tool_call_id: c.id }),
              );
            }
            if (ms[i].role === 'tool') expect(ms[i - 1].role === 'tool' || ms[i - 1].tool_calls).toBeTruthy();
          }
        }
        const last = agentRequests.at(-1);
        expect(
          last.messages.some(
            (m: any) =>
              String(m.content ?? '').startsWith(ROUNDS_SUMMARY_PREFIX) && String(m.content).includes('SUMMARY: pages'),
          ),
        ).toBe(true);
        const events = await h.events(run.id);
        expect(events.some((e) => e.type === 'node.progress' && e.data.compaction)).toBe(true);
        expect(events.some((e) => e.type === 'agent.step' && e.data.compaction)).toBe(true);
        const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
        expect((node.output as any).compactions).toBeGreaterThan(0);
      } finally {
        fake.setDefault();
      }
    });
  });
});
