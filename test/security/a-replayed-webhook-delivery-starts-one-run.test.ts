// Guarantee: a webhook delivery sent again — a sender's retry, or a captured call replayed — with the same delivery id
// (X-GitHub-Delivery, webhook-id, Idempotency-Key) starts one run: every repeat answers with the first run's id and
// `Idempotent-Replayed: true`, also after a restart, on the embedded store (the contract:
// support/webhook-replay-suite.ts).
import { useFreshDataDir } from '../api/api-helpers';
import { webhookReplaySuite } from './support/webhook-replay-suite';

useFreshDataDir('paiflow-webhook-replay-');
process.env.SEED_EXAMPLE = '0';
webhookReplaySuite();
