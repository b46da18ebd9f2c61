// Guarantees: users, sessions, personal access tokens, workspaces, memberships and invitations are kept alike on the
// embedded database and on PostgreSQL — one first owner however many setups race, a password change that revokes
// the other sessions and every token together, an invitation claimed once (AccountRepository,
// engine/store/accounts.ts).
import { storeKinds } from '../support/databases';
import { describeAccountRepository } from './support/describe-account-repository';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeAccountRepository(kind, storesOnTestDb(kind));
