// Guarantees: GET /api/workflows gives each workflow its latest run (`lastRun`, null before the first; a single-node
// test run does not count), read for the whole list in one query, and `?q=` searches names and descriptions ignoring
// case; a too-long `q` is a 400 at `query.q` (embedded store; the cases are in workflow-list-suite.ts).
import { useFreshDataDir } from './api-helpers';
import { workflowListSuite } from './workflow-list-suite';

useFreshDataDir('paiflow-workflow-list-');
process.env.SEED_EXAMPLE = '0';
workflowListSuite();
