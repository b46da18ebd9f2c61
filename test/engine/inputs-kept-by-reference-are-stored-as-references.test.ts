// Guarantees that a run input kept by reference is resolved for the execution, that any stored value equal to it (a
// snapshot's input or output, copied or not, as a list or as JSON text) keeps the reference instead, that stored
// references read back resolve to the value, and that a reference nothing resolves fails with its own code.
import { describe, expect, it } from 'vitest';
import { RunInputRefs, type InputRefResolver } from '@/engine/runtime/input-refs';

const history = [
  { role: 'user', content: 'My name is Ada' },
  { role: 'assistant', content: 'Hello Ada' },
];
const ref = { $ref: 'chat-history', conversationId: 'c1', fromSeq: 1, toSeq: 2, as: 'list' };
const resolver: InputRefResolver = { resolve: async () => structuredClone(history) };

describe('inputs kept by reference', () => {
  it('resolve for the execution and are stored as the reference wherever their value appears', async () => {
    const { inputs, refs } = await RunInputRefs.resolve({ message: 'hi', history: ref }, resolver);
    expect(inputs).toEqual({ message: 'hi', history });
    const snapshot = { userPrompt: 'hi', history: structuredClone(history), nested: [{ h: inputs.history }] };
    expect(refs.byReference(snapshot)).toEqual({ userPrompt: 'hi', history: ref, nested: [{ h: ref }] });
    // Another list, or a part of it, is not the history.
    expect(refs.byReference({ h: history.slice(1) })).toEqual({ h: history.slice(1) });
    expect(refs.resolved({ start: { message: 'hi', history: ref } })).toEqual({ start: { message: 'hi', history } });
  });

  it('match JSON text too, and leave a run without references alone', async () => {
    const text = JSON.stringify(history);
    const { refs } = await RunInputRefs.resolve({ history: { ...ref, as: 'json' } }, { resolve: async () => text });
    expect(refs.byReference({ history: text, other: `${text}!` })).toEqual({
      history: { ...ref, as: 'json' },
      other: `${text}!`,
    });
    const none = await RunInputRefs.resolve({ message: 'hi' }, undefined);
    expect(none.inputs).toEqual({ message: 'hi' });
    const value = { a: [1] };
    expect(none.refs.byReference(value)).toBe(value);
  });

  it('fail with INPUT_REF_UNRESOLVED when nothing resolves them', async () => {
    await expect(RunInputRefs.resolve({ history: ref }, undefined)).rejects.toMatchObject({
      code: 'INPUT_REF_UNRESOLVED',
    });
    const broken: InputRefResolver = { resolve: async () => Promise.reject(new Error('gone')) };
    await expect(RunInputRefs.resolve({ history: ref }, broken)).rejects.toMatchObject({
      code: 'INPUT_REF_UNRESOLVED',
    });
  });
});
