// Guarantees: evaluation datasets are kept alike on the embedded database and on PostgreSQL — rows exactly as given
// (Chinese text too), scoped to their workspace, every row change a new version with the earlier ones unchanged, and
// concurrent appends all landing (DatasetStore, engine/store/datasets.ts).
import { storeKinds } from '../support/databases';
import { describeDatasetStore } from './support/describe-dataset-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeDatasetStore(kind, storesOnTestDb(kind));
