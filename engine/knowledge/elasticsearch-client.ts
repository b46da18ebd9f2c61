/**
 * An Elasticsearch client that speaks to 8.x and 9.x servers alike.
 *
 * The 9.x client (@elastic/elasticsearch 9.4) sends `application/vnd.elasticsearch+json; compatible-with=9` (and the
 * ndjson twin) on every request with a body. An 8.x server accepts compatible-with 7 or 8 only and answers those
 * requests with 400 media_type_header_exception ("Accept version must be either version 8 or 7, but found 9").
 * Requests without a body get through (their Accept is a list, `…; compatible-with=9,text/plain`, which ES ignores
 * as a media range), but the probe does not rely on that: it sends plain `application/json`, which every major takes.
 *
 * NegotiatingTransport reads the server's major from `GET /` before its first other request (or from the first
 * request when that is `GET /`) and then sends:
 * - 8.x: `compatible-with=8` on Accept and Content-Type (json and ndjson), which 8.x serves as its current API;
 * - 9.x (or anything else): the client's own compatible-with=9 headers, unchanged.
 * A key that may not read `GET /` (no `monitor` privilege, 403) starts with the 9 headers; the first 400
 * media_type_header_exception that names version 9 switches to 8 and the request is sent again, once.
 * The version policy (8.15 ≤ version < 10) is ElasticsearchServer.checkVersion's; this only picks headers.
 */
import {
  Client,
  SniffingTransport,
  type TransportRequestOptions,
  type TransportRequestParams,
} from '@elastic/elasticsearch';

/** `new Client`'s options (the ESM build's types do not export ClientOptions). */
export type ClientOptions = ConstructorParameters<typeof Client>[0];

/** The compatible-with version sent, or `default` for the client's own (9). */
export type CompatMode = 8 | 'default';

const JSON_8 = 'application/vnd.elasticsearch+json; compatible-with=8';
const NDJSON_8 = 'application/vnd.elasticsearch+x-ndjson; compatible-with=8';
/** What the version probe sends: plain JSON, which every major accepts (no reliance on media-range parsing). */
const PLAIN = { accept: 'application/json', 'content-type': 'application/json' };

/** The headers a request needs for an 8.x server, by what it carries (the transport's own rules for each). */
export function compat8Headers(params: Pick<TransportRequestParams, 'body' | 'bulkBody'>): Record<string, string> {
  if (params.bulkBody != null) return { 'content-type': NDJSON_8, accept: JSON_8 };
  if (params.body != null && typeof params.body !== 'string' && !Buffer.isBuffer(params.body))
    return { 'content-type': JSON_8, accept: JSON_8 };
  // No body (or a raw one sent as text/plain): Accept as a list, like the client's own, Content-Type for empty bodies.
  return { 'content-type': JSON_8, accept: `${JSON_8},text/plain` };
}

/** The major of a `GET /` answer, or undefined when it has none. */
function majorOf(body: unknown): number | undefined {
  const number = (body as { version?: { number?: unknown } } | undefined)?.version?.number;
  const major = Number(String(number ?? '').split('.')[0]);
  return Number.isInteger(major) && major > 0 ? major : undefined;
}

type Failure = Error & { statusCode?: number; body?: { error?: { type?: string; caused_by?: { reason?: string } } } };

/** ES's answer to compatible-with=9 on an 8.x server. */
function refusesVersion9(e: unknown): boolean {
  const err = e as Failure;
  if (err?.name !== 'ResponseError' || err.statusCode !== 400) return false;
  const body = err.body?.error;
  return body?.type === 'media_type_header_exception' && /found 9\b|compatible-with=9/.test(JSON.stringify(body));
}

export class NegotiatingTransport extends SniffingTransport {
  /** undefined until the server's major is known (or known to be unreadable). */
  mode?: CompatMode;
  /** The server's major as read from `GET /`, if it could be read. */
  serverMajor?: number;
  private probe?: Promise<void>;

  private learn(body: unknown): void {
    this.serverMajor = majorOf(body);
    // Serverless reports 8.11.0 but is served like the newest API; the client sends it its own headers.
    const serverless = (body as { version?: { build_flavor?: string } })?.version?.build_flavor === 'serverless';
    this.mode = this.serverMajor === 8 && !serverless ? 8 : 'default';
  }

  private withHeaders(params: TransportRequestParams, options?: TransportRequestOptions): TransportRequestOptions {
    if (this.mode !== 8) return options ?? {};
    return { ...options, headers: { ...compat8Headers(params), ...options?.headers } };
  }

  /** Reads `GET /` once; a refusal (403 without `monitor`) leaves the client's headers, a connection error retries. */
  private negotiate(): Promise<void> {
    this.probe ??= super.request({ method: 'GET', path: '/' }, { headers: PLAIN }).then(
      (body) => this.learn(body),
      (e: Failure) => {
        if (e?.name === 'ResponseError') this.mode ??= 'default';
        else this.probe = undefined;
      },
    );
    return this.probe;
  }

  // The overloads of Transport.request are one function at run time; `meta` only says what to return.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each overload's TResponse; checked by the callers
  override request(params: TransportRequestParams, options?: TransportRequestOptions): Promise<any> {
    return this.send(params, options);
  }

  private async send(params: TransportRequestParams, options?: TransportRequestOptions): Promise<unknown> {
    if (this.mode === undefined) {
      if (params.method === 'GET' && params.path === '/') {
        let res;
        try {
          res = await super.request(params, { ...options, headers: { ...PLAIN, ...options?.headers }, meta: true });
        } catch (e) {
          if ((e as Error)?.name === 'ResponseError') this.mode ??= 'default';
          throw e;
        }
        if (this.mode === undefined) this.learn(res.body);
        return options?.meta ? res : res.body;
      }
      await this.negotiate();
    }
    try {
      return await super.request(params, this.withHeaders(params, options));
    } catch (e) {
      if (this.mode !== 'default' || !refusesVersion9(e)) throw e;
      // The version was not readable and the server is 8.x: speak 8 from now on.
      this.mode = 8;
      return super.request(params, this.withHeaders(params, options));
    }
  }
}

/** A client for 8.x and 9.x servers: the options of `new Client`, with the negotiating transport. */
export function createElasticsearchClient(opts: ClientOptions): Client {
  return new Client({ ...opts, Transport: NegotiatingTransport });
}
