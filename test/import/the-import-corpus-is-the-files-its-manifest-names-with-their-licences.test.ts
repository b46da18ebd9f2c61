// Guarantees: the import corpus (test/fixtures/import-corpus/) is exactly the files manifest.json names, each as its
// sha256 says (a changed file says what changed), each source's licence text is in LICENSES/, a file that cannot run
// offline says why, and about a quarter of each format is held out.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.join(__dirname, '../fixtures/import-corpus');
interface Entry {
  file: string;
  split: string;
  source: { repo: string; path: string; commit: string };
  licence: string;
  sha256: string;
  changes?: string;
  needs?: { kind: string; why: string };
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as { files: Entry[] };

it('holds exactly the files the manifest names, unchanged unless it says what changed', () => {
  const onDisk = ['dify', 'n8n'].flatMap((d) => readdirSync(path.join(ROOT, d)).map((f) => `${d}/${f}`)).sort();
  expect(manifest.files.map((f) => f.file).sort()).toEqual(onDisk);
  for (const f of manifest.files) {
    const sha = createHash('sha256')
      .update(readFileSync(path.join(ROOT, f.file)))
      .digest('hex');
    expect(sha, f.file).toBe(f.sha256);
    expect(f.source.commit, f.file).toMatch(/^[0-9a-f]{40}$/);
  }
});

it("has each source's licence text, and only licences that allow copying", () => {
  const licences = readdirSync(path.join(ROOT, 'LICENSES'));
  for (const repo of new Set(manifest.files.map((f) => f.source.repo).filter((r) => r !== 'langgenius/dify')))
    expect(licences, repo).toContain(`${repo.replace('/', '--')}.txt`);
  for (const f of manifest.files) expect(f.licence, f.file).toMatch(/^(MIT|Apache-2\.0|CC-BY-4\.0|Dify Open Source)/);
});

it('says why a file needs the internet, a SaaS account or its host, and holds out about a quarter', () => {
  for (const f of manifest.files.filter((x) => x.needs)) {
    expect(['internet', 'saas', 'host'], f.file).toContain(f.needs!.kind);
    expect(f.needs!.why.length, f.file).toBeGreaterThan(8);
  }
  for (const format of ['dify/', 'n8n/']) {
    const mine = manifest.files.filter((f) => f.file.startsWith(format));
    const held = mine.filter((f) => f.split === 'held-out').length / mine.length;
    expect(held, format).toBeGreaterThan(0.2);
    expect(held, format).toBeLessThan(0.32);
  }
});
