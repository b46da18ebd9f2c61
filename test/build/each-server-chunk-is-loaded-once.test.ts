/**
 * Guarantee (issue 47): after `npm run build`, routes whose server chunks Turbopack wrote twice under different names
 * (the same content but for the source map comment) load one file of each set, including chunks that become
 * identical once the chunks they load are rewritten; files that differ are left alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dist = mkdtempSync(path.join(tmpdir(), 'paiflow-dedupe-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
  writeFileSync(path.join(dist, name), text);
};
const chunk = (body: string, name: string) => `${body}\n//# sourceMappingURL=${path.basename(name)}.map\n`;
const entry = (...chunks: string[]) => chunks.map((c) => `R.c("server/chunks/${c}")`).join('\n');
const read = (name: string) => readFileSync(path.join(dist, name), 'utf8');

describe('deduplicating the server chunks of a build', () => {
  it('points every route at one copy, also of chunks identical only after the rewrite, and leaves others', () => {
    write('server/chunks/_aaa._.js', chunk('module.exports=[1,e=>{shared()}]', '_aaa._.js'));
    write('server/chunks/_bbb._.js', chunk('module.exports=[1,e=>{shared()}]', '_bbb._.js'));
    // Each loads one of the two copies: identical once those references point at the same copy.
    write('server/chunks/_ccc._.js', chunk('e.l("server/chunks/_aaa._.js")', '_ccc._.js'));
    write('server/chunks/_ddd._.js', chunk('e.l("server/chunks/_bbb._.js")', '_ddd._.js'));
    write('server/chunks/_eee._.js', chunk('module.exports=[2,e=>{other()}]', '_eee._.js'));
    write('server/app/a/route.js', entry('_aaa._.js', '_ccc._.js', '_eee._.js'));
    write('server/app/b/route.js', entry('_bbb._.js', '_ddd._.js'));

    const out = execFileSync(process.execPath, [path.resolve('scripts/dedupe-server-chunks.mjs'), dist], {
      encoding: 'utf8',
    });

    expect(out).toMatch(/2 duplicate chunks/);
    expect(read('server/app/a/route.js')).toBe(entry('_aaa._.js', '_ccc._.js', '_eee._.js'));
    expect(read('server/app/b/route.js')).toBe(entry('_aaa._.js', '_ccc._.js'));
    expect(read('server/chunks/_eee._.js')).toContain('other()');
  });
});
