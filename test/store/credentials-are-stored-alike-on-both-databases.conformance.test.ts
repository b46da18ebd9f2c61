// Guarantees: a workspace's credentials (already encrypted) are kept alike on the embedded database and on
// PostgreSQL — found, listed and deleted only within their workspace, a name taken once per workspace even by two
// creates at once (CredentialRepository, engine/store/credentials.ts).
import { storeKinds } from '../support/databases';
import { describeCredentialRepository } from './support/describe-credential-repository';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeCredentialRepository(kind, storesOnTestDb(kind));
