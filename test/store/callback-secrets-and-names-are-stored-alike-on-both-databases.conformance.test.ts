// Guarantees: a workflow's callback signing secret (set once however many first uses race, replaced by a rotation,
// never bumping the workflow's "last edited") and the workflow names a workspace uses are kept alike on the embedded
// database and on PostgreSQL (CallbackSecretStore and WorkflowNames, engine/store/publishing.ts).
import { storeKinds } from '../support/databases';
import { describeCallbackSecretsAndNames } from './support/describe-callback-secrets-and-names';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeCallbackSecretsAndNames(kind, storesOnTestDb(kind));
