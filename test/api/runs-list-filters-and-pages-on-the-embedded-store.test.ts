// Guarantees: GET /api/runs pages 1,000 runs by cursor exactly once each, newest first; every filter and the search
// narrow correctly; another workspace's runs never appear (embedded store).
import { useFreshDataDir } from './api-helpers';
import { runsListSuite } from './runs-list-suite';

useFreshDataDir('paiflow-runs-list-');
process.env.SEED_EXAMPLE = '0';
runsListSuite('pglite');
