/**
 * What the store learns about its cluster once and keeps: the server version (`GET /`: below 8.15 and 10 or later
 * refused), whether the nodes have the plugin the configured CJK analyzer needs (`GET /_nodes/plugins`, only for a
 * plugin analyzer) and whether the licence has server-side RRF (`GET /_license`, read on the first RRF search). Each
 * is cached per store; a connection failure is not, so the next request asks again. All need the `monitor` cluster
 * privilege; a key without it is not refused (the version and plugins go unchecked — index creation still names a
 * missing plugin — and RRF is fused in the app). Kept apart from the store so the store holds only the KnowledgeStore
 * operations.
 */
import type { Client } from '@elastic/elasticsearch';
import { PaiError } from '../errors';
import { esError, isResponseError } from './elasticsearch-errors';
import { CJK_ANALYZER_PLUGIN, type CjkAnalyzer } from './elasticsearch-requests';
import { licenceAllowsRrf } from './elasticsearch-rrf';

/** The oldest server the request bodies are valid for (retrievers, knn query with filter, named-query scores). */
const MIN_VERSION = [8, 15] as const;
/** The first major not known to work (its REST API may drop what we send); refused until tested. */
const FIRST_UNTESTED_MAJOR = 10;

/** Where the IK analyzer's releases are, one per Elasticsearch version. */
const IK_RELEASES = 'https://get.infini.cloud/elasticsearch/analysis-ik/';

/** How to install a plugin on each node (IK is not an Elastic plugin: it installs from its release URL). */
function installHint(plugin: string, version: string): string {
  if (plugin === 'analysis-ik') return `bin/elasticsearch-plugin install ${IK_RELEASES}${version || '<version>'}`;
  return `bin/elasticsearch-plugin install ${plugin}`;
}

export class ElasticsearchServer {
  private version?: Promise<void>;
  private rrf?: Promise<boolean>;
  /** The licence answer once read (undefined before): true when the rrf retriever may be used. */
  rrfOnServer?: boolean;
  /** The version `GET /` reported, once read. */
  versionNumber?: string;

  constructor(
    private readonly client: Client,
    private readonly label: string,
    private readonly cjkAnalyzer: CjkAnalyzer = 'cjk',
  ) {}

  /** Refuses a server older than 8.15 or of major 10+ with its version in the message; then checks plugins. */
  checkVersion(): Promise<void> {
    this.version ??= this.client.info().then(
      async (res) => {
        const number = res.version?.number ?? '';
        this.versionNumber = number;
        try {
          // Serverless reports a fixed 8.11.0 and has every API we use.
          if (res.version?.build_flavor !== 'serverless') this.refuseVersion(number);
          await this.checkPlugin(number);
        } catch (e) {
          // Asked again next time: the cluster may be upgraded, or the plugin installed, while the app runs.
          this.version = undefined;
          throw e;
        }
      },
      (e: unknown) => {
        // A least-privilege key without the `monitor` cluster privilege may not read `GET /`: go on unchecked.
        if (isResponseError(e) && e.statusCode === 403) return;
        this.version = undefined;
        throw esError(e, 'reading the server version');
      },
    );
    return this.version;
  }

  private refuseVersion(number: string): void {
    const [major, minor] = number.split('.').map(Number);
    const tooOld = !(major > MIN_VERSION[0] || (major === MIN_VERSION[0] && minor >= MIN_VERSION[1]));
    if (!tooOld && major < FIRST_UNTESTED_MAJOR) return;
    throw new PaiError(
      'KNOWLEDGE_VERSION_UNSUPPORTED',
      `Elasticsearch ${number || '(unknown version)'} at ${this.label} is not supported; PaiFlow needs ` +
        `Elasticsearch 8.15 or later, 8.x or 9.x (${tooOld ? 'upgrade the cluster' : 'use a 9.x cluster'})`,
      { details: { version: number } },
    );
  }

  /** The configured analyzer's plugin on every node, or KNOWLEDGE_ANALYZER_UNAVAILABLE naming it and the nodes. */
  private async checkPlugin(version: string): Promise<void> {
    const plugin = CJK_ANALYZER_PLUGIN[this.cjkAnalyzer];
    if (!plugin) return;
    let nodes: Record<string, { name?: string; plugins?: Array<{ name?: string }> }>;
    try {
      nodes = ((await this.client.nodes.info({ metric: 'plugins' })).nodes ?? {}) as typeof nodes;
    } catch (e) {
      if (isResponseError(e) && e.statusCode === 403) return;
      throw esError(e, 'reading the nodes’ plugins');
    }
    const missing = Object.entries(nodes)
      .filter(([, n]) => !n.plugins?.some((p) => p.name === plugin))
      .map(([id, n]) => n.name ?? id);
    if (!missing.length) return;
    throw new PaiError(
      'KNOWLEDGE_ANALYZER_UNAVAILABLE',
      `KNOWLEDGE_ES_CJK_ANALYZER=${this.cjkAnalyzer} needs the ${plugin} plugin on every Elasticsearch node, and ` +
        `${missing.join(', ')} at ${this.label} lack${missing.length === 1 ? 's' : ''} it: run ` +
        `\`${installHint(plugin, version)}\` on each node and restart it, or set KNOWLEDGE_ES_CJK_ANALYZER=cjk`,
      { details: { plugin, nodes: missing } },
    );
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
