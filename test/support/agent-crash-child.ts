/**
 * A separate process for the agent crash test (test/agent/agent-resumes-after-the-server-is-killed.test.ts): opens the
 * database and starts a run of start → agent → end whose model is the test's scripted server (FAKE_BASE_URL) and
 * whose http_fetch may reach the test's counting target (TARGET_HOST); the test SIGKILLs it mid-round.
 *
 *   FAKE_BASE_URL=… TARGET_URL=… CRASH_ENGINE=dag|langgraph npx tsx test/support/agent-crash-child.ts <kind> <location>
 *
 * Prints `PID <pid>` and `RUN <runId>`.
 */
import { agentGraph } from '../agent/support/durable-agent';
import { startCrashRun } from './crash-child-run';

async function main() {
  const [kind, location] = process.argv.slice(2);
  const { FAKE_BASE_URL, TARGET_URL } = process.env;
  if ((kind !== 'pglite' && kind !== 'postgres') || !location || !FAKE_BASE_URL || !TARGET_URL) {
    console.error('usage: FAKE_BASE_URL=… TARGET_URL=… tsx test/support/agent-crash-child.ts <pglite|postgres> <loc>');
    process.exit(2);
  }
  const { runs, runId } = await startCrashRun({
    kind,
    location,
    name: 'agent crash',
    graph: agentGraph(),
    engine: process.env.CRASH_ENGINE === 'langgraph' ? 'langgraph' : 'dag',
    llm: { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: FAKE_BASE_URL },
    fetchHost: new URL(TARGET_URL).host,
  });
  await runs.waitFor(runId); // the model hangs in round 3 until the test kills us
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
