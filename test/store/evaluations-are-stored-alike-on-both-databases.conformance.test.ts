// Guarantees: evaluations are kept alike on the embedded database and on PostgreSQL — the dataset's rows copied in,
// scoped to their workspace, one driver at a time with stale claims taken over, each row's run and first result
// kept, cancelling leaving unstarted rows cancelled, and a publish gate per workflow (EvaluationStore,
// engine/store/evaluations.ts).
import { storeKinds } from '../support/databases';
import { describeEvaluationStore } from './support/describe-evaluation-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeEvaluationStore(kind, storesOnTestDb(kind));
