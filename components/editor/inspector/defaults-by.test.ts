/**
 * Guarantee: switching the Code node's language in the form swaps its example code for the other language's, and
 * never replaces code the user wrote.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codeConfigSchema, DEFAULT_CODE, DEFAULT_PYTHON_CODE } from '@/engine/nodes/code';
import type { JsonSchema } from '@/components/api/types';
import { defaultsFollowing } from './defaults-by';

const schema = z.toJSONSchema(codeConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

describe('the Code node form', () => {
  it('offers the Python example when the language becomes Python, and the JavaScript one back', () => {
    expect(defaultsFollowing(schema, { code: DEFAULT_CODE }, 'language', 'python')).toEqual({
      code: DEFAULT_PYTHON_CODE,
    });
    expect(defaultsFollowing(schema, {}, 'language', 'python')).toEqual({ code: DEFAULT_PYTHON_CODE });
    expect(defaultsFollowing(schema, { code: DEFAULT_PYTHON_CODE }, 'language', 'javascript')).toEqual({
      code: DEFAULT_CODE,
    });
  });

  it("keeps the user's own code", () => {
    expect(defaultsFollowing(schema, { code: 'def main():\n    return {}' }, 'language', 'javascript')).toEqual({});
    expect(defaultsFollowing(schema, { code: DEFAULT_CODE }, 'timeoutMs', 5)).toEqual({});
  });
});
