// Guarantees: the cost contract (test/api/workflow-cost-suite.ts) on the embedded database: a run's view has its
// total cost (MODEL_PRICES over the built-in list, a credential's prices over both), and GET /api/workflows/:id/cost
// sums a workflow's runs in a time range, counts runs without a price, and is scoped to the caller's workspace.
import { describe } from 'vitest';
import { useFreshDataDir } from './api-helpers';
import { workflowCostSuite } from './workflow-cost-suite';

useFreshDataDir('paiflow-cost-api-');
describe('run and workflow cost', () => workflowCostSuite());
