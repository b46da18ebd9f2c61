/** `npm run bench`: runs every engine benchmark and prints one table per benchmark. */
import { runDagOverheadBench } from './dag-overhead.bench';

async function main() {
  console.log('\n== DAG engine overhead per node (no-op chain, durable snapshots; best of N runs) ==');
  const rows = await runDagOverheadBench();
  console.table(rows);
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
