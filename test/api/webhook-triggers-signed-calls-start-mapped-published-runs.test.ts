// Guarantee: the webhook-trigger contract (webhook-triggers-signed-calls-suite.ts) holds on the embedded store.
import { useFreshDataDir } from './api-helpers';
import { signedCallsSuite } from './webhook-triggers-signed-calls-suite';

useFreshDataDir('paiflow-webhooks-');
process.env.SEED_EXAMPLE = '0';
signedCallsSuite();
