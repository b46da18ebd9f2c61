// Guarantees: the run reports computed in SQL are the same on the embedded database and on PostgreSQL — the run
// list's keyset pages, filters, literal search and workspace scope; the workflow stats (per-day buckets,
// percentile_cont, usage sums); a range's and a run's spend; each workflow's latest run; the runs waiting for a
// person (RunAnalyticsStore, engine/store/analytics.ts).
import { storeKinds } from '../support/databases';
import { describeRunAnalytics } from './support/describe-run-analytics';

for (const kind of await storeKinds()) describeRunAnalytics(kind);
