#!/usr/bin/env node
// `npm test`: every check and test suite, in two lanes that run side by side, each stage's output printed whole when
// it ends (so two stages never interleave their lines), and the time of each stage at the end.
//
//   lane 1: lint and format (at once) → vitest (unit + integration on the source)
//   lane 2: next build (once, without its own type check) → typecheck (`tsc --noEmit` of the whole repository,
//           .next/types included) beside acceptance (black-box, on that build: embedded, PostgreSQL + Redis, queue
//           mode) → e2e (Playwright in Chromium, on that build)
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

async function checksThenVitest() {
  await Promise.all([stage('lint', ...npx('eslint', '.')), stage('format', ...npx('prettier', '--check', '.'))]);
  await stage('vitest', ...npx('vitest', 'run'));
}

async function buildThenBlackBox() {
  const needsBuild = !only || ['build', 'typecheck', 'acceptance', 'e2e'].some((s) => only.has(s));
  const build = { FORCE_COLOR: '0', PAIFLOW_BUILD_TYPECHECK: '0' };
  if (!(await stage('build', 'npm', ['run', 'build'], build, needsBuild))) return;
  // Both suites use this build: neither builds again.
  const skip = { ACCEPTANCE_SKIP_BUILD: '1', E2E_SKIP_BUILD: '1' };
  await Promise.all([
    stage('typecheck', ...npx('tsc', '--noEmit')),
    stage('acceptance', 'node', ['scripts/test-acceptance.mjs', '--skip-build'], skip),
  ]);
  await stage('e2e', 'node', ['scripts/test-e2e.mjs'], skip);
}

await Promise.all([checksThenVitest(), buildThenBlackBox()]);

// The failures again, last, where a CI log's tail shows them: each failed stage's failure lines, then the table.
const FAILURE_LINE = /(FAIL|✘|×|Error|failed|Expected|Received|expected|timed? ?out)/;
for (const r of results.filter((x) => !x.ok)) {
  const lines = readFileSync(`${LOGS}/${r.name}.log`, 'utf8')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => FAILURE_LINE.test(line))
    .map((line) => line.trimEnd().slice(0, 240));
  const unique = [...new Set(lines)];
  console.log(`──── ${r.name} FAILED — its failure lines (${unique.length}; whole log: ${LOGS}/${r.name}.log) ────`);
  console.log(unique.slice(0, 40).join('\n'));
  if (unique.length > 40) console.log(`… and ${unique.length - 40} more`);
}

console.log('stage        time   ended at');
for (const r of results)
  console.log(
    `${r.name.padEnd(12)} ${clock(r.ms).padStart(5)}  ${clock(r.end).padStart(5)}  ${r.ok ? 'ok' : 'FAILED'}`,
  );
console.log(`total        ${clock(Date.now() - started).padStart(5)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
