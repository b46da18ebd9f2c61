// Guarantees: agents' long-term memories are kept alike on the embedded database and on PostgreSQL — embeddings
// exactly, one memory per fact and scope however often or concurrently it is saved, recall by scope and embedder newest
// first (MemoryStore, engine/node-kit/agent-services.ts).
import { storeKinds } from '../support/databases';
import { describeMemoryStore } from './support/describe-memory-store';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeMemoryStore(kind, storesOnTestDb(kind));
