// Guarantees: GET /api/workflows/:id/stats gives the hand-computed per-day and total numbers (runs, outcomes,
// p50/p95, tokens, cost) and the slowest / most failing nodes of a known data set (embedded store).
import { useFreshDataDir } from './api-helpers';
import { workflowStatsSuite } from './workflow-stats-suite';

useFreshDataDir('paiflow-stats-');
process.env.SEED_EXAMPLE = '0';
workflowStatsSuite('pglite');
