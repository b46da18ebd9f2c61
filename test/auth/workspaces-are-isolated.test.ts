// Guarantees: users of workspace B cannot list, read, run, resume, cancel, stream, export, publish, key or delete
// anything of workspace A, by id or by slug, and B's runs cannot use A's knowledge bases or credentials (embedded
// store).
import { useFreshDataDir } from '../api/api-helpers';
import { isolationSuite } from './support/isolation-suite';

useFreshDataDir('paiflow-iso-');
process.env.SEED_EXAMPLE = '0';
isolationSuite();
