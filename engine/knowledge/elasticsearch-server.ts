/**
 * What the store learns about its cluster once and keeps: the server version (`GET /`, below 8.15 refused) and whether
 * the licence has server-side RRF (`GET /_license`, read on the first RRF search). Both are cached per store; a
 * connection failure is not, so the next request asks again. Both need the `monitor` cluster privilege; a key without
 * it is not refused (the version goes unchecked, RRF is fused in the app). Kept apart from the store so the store holds
 * only the KnowledgeStore operations.
 */
import type { Client } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { esError, isResponseError } from './elasticsearch-errors';
import { licenceAllowsRrf } from './elasticsearch-rrf';

/** The oldest server the request bodies are valid for (retrievers, knn query with filter, named-query scores). */
const MIN_VERSION = [8, 15] as const;

export class ElasticsearchServer {
  private version?: Promise<void>;
  private rrf?: Promise<boolean>;
  /** The licence answer once read (undefined before): true when the rrf retriever may be used. */
  rrfOnServer?: boolean;

  constructor(
    private readonly client: Client,
    private readonly label: string,
  ) {}

  /** Refuses a server older than 8.15 with its version in the message. */
  checkVersion(): Promise<void> {
    this.version ??= this.client.info().then(
      (res) => {
        // Serverless reports a fixed 8.11.0 and has every API we use.
        if (res.version?.build_flavor === 'serverless') return;
        const number = res.version?.number ?? '';
        const [major, minor] = number.split('.').map(Number);
        if (!(major > MIN_VERSION[0] || (major === MIN_VERSION[0] && minor >= MIN_VERSION[1]))) {
          throw new PaiError(
            'KNOWLEDGE_VERSION_UNSUPPORTED',
            `Elasticsearch ${number || '(unknown version)'} at ${this.label} is not supported; ` +
              'PaiFlow needs Elasticsearch 8.15 or later (8.x or 9.x)',
            { status: 502 },
          );
        }
      },
      (e: unknown) => {
        // A least-privilege key without the `monitor` cluster privilege may not read `GET /`: go on unchecked (an
        // 8.x server still fails clearly, with KNOWLEDGE_VERSION_UNSUPPORTED, on the first request).
        if (isResponseError(e) && e.statusCode === 403) return;
        this.version = undefined;
        throw esError(e, 'reading the server version');
      },
    );
    return this.version;
  }

  /**
   * Whether the licence has the rrf retriever, read once. A key that may not read the licence (403) or a cluster
   * without the endpoint gets client-side RRF, which works everywhere.
   */
  serverRrf(): Promise<boolean> {
    this.rrf ??= this.client.license.get().then(
      (res) => (this.rrfOnServer = licenceAllowsRrf(res.license)),
      (e: unknown) => {
        if (isResponseError(e)) return (this.rrfOnServer = false);
        this.rrf = undefined;
        throw esError(e, 'reading the licence');
      },
    );
    return this.rrf;
  }

  /** The server refused the rrf retriever for its licence (lapsed or downgraded since read): fuse in the app. */
  licenceLapsed(): void {
    this.rrfOnServer = false;
    this.rrf = Promise.resolve(false);
  }
}
