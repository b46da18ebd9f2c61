// Guarantees: the audit log (a workspace's entries newest first, instance-wide ones on request) and the sign-in
// attempts that throttling counts are kept alike on the embedded database and on PostgreSQL (AuditLog,
// engine/store/audit.ts; SignInAttempts, engine/store/accounts.ts).
import { storeKinds } from '../support/databases';
import { describeAuditAndSignInAttempts } from './support/describe-audit-and-sign-in-attempts';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeAuditAndSignInAttempts(kind, storesOnTestDb(kind));
