// Guarantees: the knowledge catalogue is kept alike on the embedded database and on PostgreSQL — knowledge bases per
// workspace with their document and chunk counts, documents' indexing status and errors, stale documents, deletion
// taking the documents (KnowledgeCatalog, engine/knowledge/catalog.ts).
import { storeKinds } from '../support/databases';
import { describeKnowledgeCatalog } from './support/describe-knowledge-catalog';
import { storesOnTestDb } from './support/stores-under-test';

for (const kind of await storeKinds()) describeKnowledgeCatalog(kind, storesOnTestDb(kind));
