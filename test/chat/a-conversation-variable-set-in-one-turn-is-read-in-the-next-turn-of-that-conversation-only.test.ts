// Guarantees (issue 45, conversation variables): a workflow declares typed conversation variables; a chat turn's run
// starts with its conversation's values (defaults at first) and reads them as {{conversation.name}}; a variable
// assigner changes them for the nodes after it, and the run stores them with the conversation when it succeeds. So a
// value set in turn 1 is read in turn 2 of the same conversation, not in another conversation, not in a run outside
// any conversation (the published API), and a turn whose run fails after an assigner wrote leaves them as they were.
// An export of the workflow imports back with its declarations.
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { call } from '../api/api-helpers';
import { bearer, json, node, publishChatApp, useChatAppServer, type ChatApp } from './chat-app-fixtures';

useChatAppServer('paiflow-chat-variables-');

const graph = {
  nodes: [
    node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }] }),
    node(
      'bump',
      'variable_assigner',
      {
        operations: [
          { variable: 'visits', operation: 'add', value: 1 },
          { variable: 'notes', operation: 'append', value: '{{inputs.message}}' },
        ],
      },
      200,
    ),
    // "oops" is no number: this assigner fails after `bump` wrote, and the turn's run fails.
    node('last', 'variable_assigner', { operations: [{ variable: 'last', value: '{{inputs.message}}' }] }, 400),
    node(
      'end',
      'end',
      {
        outputs: [
          {
            name: 'answer',
            value:
              '{{conversation.greeting}} visits={{conversation.visits}} ' +
              'notes={{conversation.notes}} last={{conversation.last}}',
          },
        ],
      },
      600,
    ),
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'bump' },
    { id: 'e2', source: 'bump', target: 'last' },
    { id: 'e3', source: 'last', target: 'end' },
  ],
  conversationVariables: [
    { name: 'greeting', type: 'string', default: 'hi' },
    { name: 'visits', type: 'number', default: 0, description: 'turns so far' },
    { name: 'notes', type: 'array[string]' },
    { name: 'last', type: 'number' },
  ],
};

let chat: ChatApp;
beforeAll(async () => {
  chat = await publishChatApp('Chat with variables', graph, { enabled: true, access: 'public' });
});

const send = (message: string, conversationId?: string) =>
  json(
    'POST',
    `/api/v1/chat/${chat.slug}/messages`,
    { message, stream: false, ...(conversationId ? { conversationId } : {}) },
    bearer(chat.key),
  );

describe('conversation variables across the turns of a chat', () => {
  it('turn 2 reads what turn 1 wrote; a failed turn writes none; a new conversation starts at defaults', async () => {
    const one = await send('1');
    expect(one.status, one.text).toBe(200);
    expect(one.body.answer).toBe('hi visits=1 notes=["1"] last=1');
    const conversationId = one.body.conversationId;

    const two = await send('2', conversationId);
    expect(two.body.answer).toBe('hi visits=2 notes=["1","2"] last=2');

    const failed = await send('oops', conversationId);
    expect(failed.status, failed.text).toBe(422);
    const run = await json('GET', `/api/runs/${failed.body.error.runId}`);
    const byNode = Object.fromEntries(run.body.nodes.map((n: { nodeId: string }) => [n.nodeId, n]));
    expect(byNode.bump).toMatchObject({ status: 'succeeded', output: { written: { visits: 3 } } });
    expect(byNode.last).toMatchObject({ status: 'failed', error: { code: 'ASSIGNER_VALUE_TYPE' } });

    const four = await send('4', conversationId);
    expect(four.body.answer).toBe('hi visits=3 notes=["1","2","4"] last=4');

    const other = await send('7');
    expect(other.body.conversationId).not.toBe(conversationId);
    expect(other.body.answer).toBe('hi visits=1 notes=["7"] last=7');
  });

  it('a run outside any conversation (the published API) starts at the defaults every time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await json(
        'POST',
        `/api/v1/workflows/${chat.slug}/run`,
        { inputs: { message: '5' }, mode: 'sync' },
        bearer(chat.key),
      );
      expect(r.status, r.text).toBe(200);
      expect(r.body.outputs.answer).toBe('hi visits=1 notes=["5"] last=5');
    }
  });

  it('an export imports back with its conversation variables', async () => {
    const exported = await call(exportWf, 'GET', `/api/workflows/${chat.id}/export`, { params: { id: chat.id } });
    expect(exported.status).toBe(200);
    const again = await call(importWf, 'POST', '/api/workflows/import', { body: exported.body });
    expect(again.status).toBe(201);
    const wf = await json('GET', `/api/workflows/${again.body.id}`);
    expect(wf.body.graph.conversationVariables).toEqual(graph.conversationVariables);
  });
});
