// Guarantees: every route under app/api (walked from the file tree) refuses callers without credentials (401),
// viewers on routes that change anything (403), and members of another workspace on A's resources (404), on a
// fresh embedded database.
import { useFreshDataDir } from '../api/api-helpers';
import { routeWalkSuite } from './support/route-walk-suite';

useFreshDataDir('paiflow-auth-');
process.env.SEED_EXAMPLE = '0';
routeWalkSuite();
