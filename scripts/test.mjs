#!/usr/bin/env node
// `npm test`: every check and test suite, each stage's output printed whole when it ends (so two stages never
// interleave their lines), then each failed stage's failure lines and the time of each stage.
//
//   1. lint, format, next build (once, without its own type check)     — at once
//   2. typecheck (`tsc --noEmit`, .next/types included), acceptance    — at once, acceptance on that build
//   3. e2e (Playwright in Chromium, on that build), then vitest        — one after the other
//
// A failing stage does not stop the others (CI shows every failure at once); the exit code is 1 if any failed.
// `node scripts/test.mjs --only vitest,e2e` runs some stages (a stage that needs the build builds first).
import { spawn } from 'node:child_process';
import { mkdirSync, createWriteStream, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',')) : null;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1', FORCE_COLOR: '1' };
const LOGS = 'test-logs';
mkdirSync(LOGS, { recursive: true });

const started = Date.now();
const results = [];
const clock = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** Runs one stage's command with its output in a log file; prints the log when it ends. */
function stage(name, command, args, extraEnv = {}, wanted = !only || only.has(name)) {
  if (!wanted) return Promise.resolve(true);
  const t0 = Date.now();
  const file = `${LOGS}/${name}.log`;
  const out = createWriteStream(file);
  console.log(`▶ ${name} (at ${clock(t0 - started)})`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      out.end(() => {
        const ms = Date.now() - t0;
        const ok = code === 0;
        results.push({ name, ms, ok, end: Date.now() - started });
        console.log(`\n──── ${name}: ${ok ? 'passed' : `FAILED (exit ${code})`} in ${clock(ms)} ────`);
        console.log(readFileSync(file, 'utf8').trimEnd());
        console.log(`──── end of ${name} (log: ${file}) ────\n`);
        resolve(ok);
      });
    });
  });
}

const npx = (...args) => ['npx', args];

// Three phases, each using the machine's cores without starving the black-box suites (they measure a real server's
// answers against timeouts; with vitest's workers beside them on 2 cores they failed on CI):
//   1. lint, format and next build at once
//   2. typecheck (needs the build's .next/types) beside acceptance (on that build)
//   3. e2e (on that build, two Playwright workers), then vitest alone
const wants = (...names) => !only || names.some((s) => only.has(s));
const skipBuild = { ACCEPTANCE_SKIP_BUILD: '1', E2E_SKIP_BUILD: '1' }; // both suites use this build
let built = true;
await Promise.all([
  stage('lint', ...npx('eslint', '.')),
  stage('format', ...npx('prettier', '--check', '.')),
  (async () => {
    const build = { FORCE_COLOR: '0', PAIFLOW_BUILD_TYPECHECK: '0' };
    built = await stage('build', 'npm', ['run', 'build'], build, wants('build', 'typecheck', 'acceptance', 'e2e'));
  })(),
]);
/** A stage on the build: when the build failed it is not run, and the table says so. */
function onBuild(name, command, args, extraEnv) {
  if (built || !wants(name)) return stage(name, command, args, extraEnv);
  results.push({ name, ms: 0, ok: false, end: Date.now() - started, note: 'not run: the build failed' });
  return Promise.resolve(false);
}
await Promise.all([
  onBuild('typecheck', ...npx('tsc', '--noEmit'), {}),
  onBuild('acceptance', 'node', ['scripts/test-acceptance.mjs', '--skip-build'], skipBuild),
]);
// e2e, then vitest: side by side on 2 cores they ran 18–30× slower at times (`next dev`'s compile in the npm-run-dev
// spec beside vitest's forks) and vitest's model-loading tests failed on 30 s waits; one after the other costs
// about the same time in all, because either alone already keeps both cores busy.
await onBuild('e2e', 'node', ['scripts/test-e2e.mjs'], skipBuild);
await stage('vitest', ...npx('vitest', 'run'));

// The failures again, last, where a CI log's tail shows them: each failed stage's failure lines, then the table.
const FAILURE_LINE = /(FAIL|✘|×|Error|failed|Expected|Received|expected|timed? ?out)/;
for (const r of results.filter((x) => !x.ok && !x.note)) {
  const lines = readFileSync(`${LOGS}/${r.name}.log`, 'utf8')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    // A passed test's line can name a failure ("… fails the run"): only the others.
    .filter((line) => FAILURE_LINE.test(line) && !/^\s*✓/.test(line))
    .map((line) => line.trimEnd().slice(0, 240));
  const unique = [...new Set(lines)];
  console.log(`──── ${r.name} FAILED — its failure lines (${unique.length}; whole log: ${LOGS}/${r.name}.log) ────`);
  console.log(unique.slice(0, 40).join('\n'));
  if (unique.length > 40) console.log(`… and ${unique.length - 40} more`);
}

console.log('stage        time   ended at');
for (const r of results) {
  const outcome = (r.ok ? 'ok' : 'FAILED') + (r.note ? ` (${r.note})` : '');
  console.log(`${r.name.padEnd(12)} ${clock(r.ms).padStart(5)}  ${clock(r.end).padStart(5)}  ${outcome}`);
}
console.log(`total        ${clock(Date.now() - started).padStart(5)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
