// Guarantees: a published workflow is served at /api/v1/workflows/:slug/run from an immutable version, only to its own
// live API keys, in sync/stream/async mode with idempotency; version-1 runs resume on version 1; the OpenAPI document
// validates — on the embedded store.
import { useFreshDataDir } from './api-helpers';
import { publishContractSuite } from './publish-contract-suite';

useFreshDataDir();
publishContractSuite('pglite');
