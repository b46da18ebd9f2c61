// Guarantees (issue 34): the engine says what went wrong (an error code) and never an HTTP status; the HTTP edge
// answers each code with the status of one table (lib/http/error-statuses.ts), a stored workflow that cannot run is
// 422 whatever its problem's code, a handler may choose another status for its context (answerWith), a code the
// table does not list answers 400, and the table names only codes the source still throws.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PaiError, WorkflowInvalidError } from '@/engine/errors';
import { STATUS_OF_CODE } from '@/lib/http/error-statuses';
import { answerWith, route } from '@/lib/http/errors';

const answer = async (err: PaiError) => {
  const res = await route(async () => {
    throw err;
  })(new Request('http://localhost/api/x'), {});
  return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
};

describe('HTTP statuses are chosen at the edge from one table', () => {
  it.each([
    ['RUN_ACTIVE', 409],
    ['WORKFLOW_NOT_FOUND', 404],
    ['CHILD_NOT_PUBLISHED', 422],
    ['KNOWLEDGE_STORE_UNAVAILABLE', 503],
    ['DOCUMENT_TOO_LARGE', 413],
    ['LLM_RATE_LIMITED', 429],
  ])('an engine error %s is answered %i', async (code, status) => {
    expect(await answer(new PaiError(code, 'what went wrong'))).toEqual({ status, code });
  });

  it('a code the table does not list is answered 400', async () => {
    expect(await answer(new PaiError('SOMETHING_NEW', 'x'))).toEqual({ status: 400, code: 'SOMETHING_NEW' });
  });

  it('a stored workflow that cannot run is 422 whatever its problem; the same problem in a body is 400', async () => {
    const stored = new WorkflowInvalidError('UNKNOWN_KEY', 'the workflow is invalid: unknown key "temprature"');
    expect(await answer(stored)).toEqual({ status: 422, code: 'UNKNOWN_KEY' });
    expect(await answer(new PaiError('UNKNOWN_KEY', 'unknown key "x"'))).toEqual({ status: 400, code: 'UNKNOWN_KEY' });
  });

  it('a handler may answer a code with the status its context gives it', async () => {
    const unpublish = answerWith(new PaiError('NOT_PUBLISHED', 'the workflow has never been published'), 409);
    expect(await answer(unpublish)).toEqual({ status: 409, code: 'NOT_PUBLISHED' });
    // The choice belongs to that one error, not to the code.
    expect(await answer(new PaiError('NOT_PUBLISHED', 'no such endpoint'))).toEqual({
      status: 404,
      code: 'NOT_PUBLISHED',
    });
  });

  it('an engine error carries no HTTP status of its own', () => {
    const err = new PaiError('RUN_ACTIVE', 'x', { path: 'a' });
    expect(Object.keys(err)).not.toContain('status');
    expect('status' in err).toBe(false);
  });

  it('every code in the table is still thrown somewhere', () => {
    const listed = Object.keys(STATUS_OF_CODE);
    const source = execFileSync('git', ['ls-files', 'engine/*.ts', 'engine/*.mjs', 'lib/*.ts', 'app/*.ts'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f && !f.endsWith('.test.ts') && f !== 'lib/http/error-statuses.ts' && !f.includes('/generated/'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(listed.filter((code) => !source.includes(`'${code}'`))).toEqual([]);
  });
});
