#!/usr/bin/env node
// Run after `next build` (the `build` script). Turbopack (Next 16.4) writes some server chunks several times under
// different names with the same content — the largest, the app's shared code (1.8 MB), 15 times, one per group of
// routes — and the server keeps the source of each copy it loads: ~54 MB of an idle server's 146 MB heap
// (issue 47, heap snapshot of 2026-12-05). This points every route at one file of each set of identical chunks, so a
// chunk is loaded once whichever routes are used. The copies stay on disk (nothing else is rewritten); a build
// without duplicates is left as it is.
//
//   node scripts/dedupe-server-chunks.mjs [.next]
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dist = path.resolve(process.argv[2] ?? '.next');
const server = path.join(dist, 'server');
const chunks = path.join(server, 'chunks');
/** The source map comment names the file itself: it is the only part in which copies differ. */
const SOURCE_MAP = /\n\/\/# sourceMappingURL=[^\n]*\s*$/;

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return jsFiles(p);
    return name.endsWith('.js') ? [p] : [];
  });
}

/** The name a route uses to load a chunk: `server/chunks/…`, relative to the build folder. */
const nameOf = (file) => path.relative(dist, file).split(path.sep).join('/');

/** Chunk files with the same content (but for the source map comment), grouped; each group sorted by name. */
function identicalChunks() {
  const byContent = new Map();
  for (const file of jsFiles(chunks)) {
    const digest = createHash('sha256').update(readFileSync(file, 'utf8').replace(SOURCE_MAP, '')).digest('hex');
    byContent.set(digest, [...(byContent.get(digest) ?? []), nameOf(file)]);
  }
  return [...byContent.values()].filter((names) => names.length > 1).map((names) => names.sort());
}

/** Points every quoted reference to a copy at the first of its group; returns how many files changed. */
function pointAtOneCopy(canonical) {
  // Chunk names are content-free hashes (`_1ugx46wra0szw._.js`), so a quoted name matches only a reference to it.
  const escaped = [...canonical.keys()].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const reference = new RegExp(`"(${escaped.join('|')})"`, 'g');
  let changed = 0;
  for (const file of jsFiles(server)) {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(reference, (_, name) => `"${canonical.get(name)}"`);
    if (next !== text) {
      writeFileSync(file, next);
      changed++;
    }
  }
  return changed;
}

// A chunk that loads a copy differs from one that loads its original only until it is rewritten: repeat until no
// reference changes.
const canonical = new Map();
let rewritten = 0;
for (;;) {
  const fresh = new Map();
  for (const [keep, ...copies] of identicalChunks())
    for (const copy of copies) if (!canonical.has(copy)) fresh.set(copy, keep);
  if (!fresh.size) break;
  for (const [copy, keep] of fresh) canonical.set(copy, keep);
  const changed = pointAtOneCopy(fresh);
  rewritten += changed;
  if (!changed) break;
}
if (!canonical.size) {
  console.log('dedupe-server-chunks: no duplicate server chunks');
  process.exit(0);
}
const saved = [...canonical.keys()].reduce((n, name) => n + statSync(path.join(dist, name)).size, 0);
console.log(
  `dedupe-server-chunks: ${canonical.size} duplicate chunks (${(saved / 1e6).toFixed(1)} MB) no longer loaded; ` +
    `${rewritten} files now load one copy`,
);
