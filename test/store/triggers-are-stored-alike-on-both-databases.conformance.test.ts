// Guarantees: webhook and schedule triggers are kept alike on the embedded database and on PostgreSQL — scoped by
// workflow, found by a hook's id alone, due schedules in tick order, and a tick advanced by exactly one of several
// schedulers at once (TriggerRepository, engine/store/triggers.ts).
import { storeKinds } from '../support/databases';
import { describeTriggerRepository } from './support/describe-trigger-repository';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeTriggerRepository(kind, storesOnTestDb(kind));
