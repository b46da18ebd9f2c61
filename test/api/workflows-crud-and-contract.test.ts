// Guarantees: the v1 HTTP contract shapes (health, node-types, runs, CRUD with optimistic revisions, export/import,
// validate) hold on a fresh embedded database.
import { useFreshDataDir } from './api-helpers';
import { crudAndContractSuite } from './crud-contract-suite';

useFreshDataDir();
crudAndContractSuite('pglite');
