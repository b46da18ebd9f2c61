// Guarantees: artifact rows are kept alike on the embedded database and on PostgreSQL — exactly, found only in their
// run's workspace, replaced by id, swept oldest first (ArtifactStore, engine/artifacts/types.ts).
import { storeKinds } from '../support/databases';
import { describeArtifactStore } from './support/describe-artifact-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeArtifactStore(kind, storesOnTestDb(kind));
