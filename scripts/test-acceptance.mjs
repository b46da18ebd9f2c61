#!/usr/bin/env node
// The black-box acceptance suite (acceptance/): builds the app once (`npm run build`, unless --skip-build or
// ACCEPTANCE_SKIP_BUILD=1), then runs every journey against `npm start` in each profile — embedded, PostgreSQL +
// Redis, and queue mode with one `npm run worker` — one after the other, and prints how long each took.
//
//   node scripts/test-acceptance.mjs [--profiles embedded,postgres,queue] [--skip-build] [vitest args…]
//
// The PostgreSQL and Redis profiles need TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test) and
// TEST_REDIS_URL (default redis://127.0.0.1:6379): unreachable → SKIPPED, except under CI=true, where it fails.
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { profiles: { type: 'string' }, 'skip-build': { type: 'boolean' } },
  allowPositionals: true,
  strict: false,
});
const profiles = String(values.profiles ?? process.env.ACCEPTANCE_PROFILES ?? 'embedded,postgres,queue').split(',');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1' };

function reachable(url, fallbackPort) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port || fallbackPort) });
    s.setTimeout(2000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

const seconds = (t0) => Math.round((Date.now() - t0) / 100) / 10;
const timings = [];
let failed = false;

if (!values['skip-build'] && env.ACCEPTANCE_SKIP_BUILD !== '1') {
  const t0 = Date.now();
  const b = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  timings.push(['build', seconds(t0)]);
  if (b.status !== 0) {
    console.error('acceptance: npm run build failed');
    process.exit(1);
  }
}

for (const profile of profiles) {
  if (profile !== 'embedded') {
    const pg = await reachable(env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test', 5432);
    const redis = await reachable(env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', 6379);
    if (!pg || !redis) {
      const what = [!pg && 'PostgreSQL', !redis && 'Redis'].filter(Boolean).join(' and ');
      if (env.CI === 'true') {
        console.error(`acceptance: ${profile}: ${what} unreachable, and required under CI=true`);
        failed = true;
      } else console.warn(`acceptance: ${profile}: SKIPPED — ${what} unreachable`);
      continue;
    }
  }
  const t0 = Date.now();
  console.log(`\nacceptance: profile ${profile}`);
  const r = spawnSync('npx', ['vitest', 'run', '--config', 'acceptance/vitest.config.mts', ...positionals], {
    stdio: 'inherit',
    env: { ...env, ACCEPTANCE_PROFILE: profile, ACCEPTANCE_SKIP_BUILD: '1' },
  });
  timings.push([`acceptance (${profile})`, seconds(t0)]);
  if (r.status !== 0) failed = true;
}

console.log('\nacceptance stages:');
for (const [name, s] of timings) console.log(`  ${name.padEnd(28)} ${String(s).padStart(6)} s`);
process.exit(failed ? 1 : 0);
