/**
 * Guarantees: an UNKNOWN_KEY problem shows in the editor in the UI's language — `unknown key "temprature" — did you
 * mean "temperature"?` in English and in Chinese — on its node and field like any config problem (other problems
 * keep the server's message), and its fix renames the key to the suggestion (keeping a value the suggested key
 * already has) or removes it, also inside a nested object.
 */
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { Problem } from '@/components/api/types';
import { MESSAGES } from '@/messages';
import { getIn } from './graph-model';
import { fixUnknownKey, holderOf } from './inspector/unknown-key-fix';
import { problemMessage, toProblemViews } from './problem-views';

const translatorOf = (locale: 'en' | 'zh-CN') => {
  const t = createTranslator({ locale, messages: MESSAGES[locale] });
  return (key: string, values?: Record<string, string | number | Date>) => t(key as never, values as never);
};

const typo: Problem = {
  code: 'UNKNOWN_KEY',
  message: 'unknown key "temprature" — did you mean "temperature"?',
  path: 'nodes[1].data.config.temprature',
  nodeIds: ['ask'],
  details: { key: 'temprature', suggestion: 'temperature' },
};

describe('the message of an unknown-key problem', () => {
  it('reads the same in English as the server wrote it, and in Chinese', () => {
    expect(problemMessage(typo, translatorOf('en'))).toBe(typo.message);
    expect(problemMessage(typo, translatorOf('zh-CN'))).toBe('未知的键“temprature”——是不是要写“temperature”？');
  });

  it('names the key alone when nothing is close; other problems keep the server’s message', () => {
    const bare = { ...typo, details: { key: 'priority' } };
    expect(problemMessage(bare, translatorOf('en'))).toBe('unknown key "priority"');
    expect(problemMessage(bare, translatorOf('zh-CN'))).toBe('未知的键“priority”');
    const other: Problem = { code: 'INVALID_CONFIG', message: 'Too big', path: 'nodes[1].data.config.temperature' };
    expect(problemMessage(other, translatorOf('zh-CN'))).toBe('Too big');
  });

  it('is placed on its node and field like any config problem', () => {
    const [v] = toProblemViews([typo], ['start', 'ask', 'end'], [], []);
    expect({ nodeId: v.nodeId, field: v.field }).toEqual({ nodeId: 'ask', field: 'data.config.temprature' });
  });
});

describe('the fix of an unknown key', () => {
  it('renames it to the suggestion, or removes it', () => {
    const data = { label: 'Ask', config: { userPrompt: 'hi', temprature: 1.5 } };
    const holder = holderOf('data.config.temprature', 'temprature')!;
    expect(holder).toEqual(['config']);
    expect(fixUnknownKey(data, holder, 'temprature', 'temperature').config).toEqual({
      userPrompt: 'hi',
      temperature: 1.5,
    });
    expect(fixUnknownKey(data, holder, 'temprature').config).toEqual({ userPrompt: 'hi' });
    expect(data.config.temprature).toBe(1.5); // the node's data is not changed in place
  });

  it('keeps the value the suggested key has already, and works inside nested objects and lists', () => {
    const data = { config: { rows: [{ provider: { baseURL: 'https://old/v1', baseUrl: 'https://new/v1' } }] } };
    const holder = holderOf('data.config.rows[0].provider.baseURL', 'baseURL')!;
    expect(holder).toEqual(['config', 'rows', 0, 'provider']);
    expect(getIn(fixUnknownKey(data, holder, 'baseURL', 'baseUrl'), holder)).toEqual({
      baseUrl: 'https://new/v1',
    });
  });

  it('offers no fix for a path that is not below the node’s data', () => {
    expect(holderOf('position.z', 'z')).toBeNull();
    expect(holderOf('data.config.other', 'temprature')).toBeNull();
  });
});
