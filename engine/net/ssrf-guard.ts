/**
 * SSRF guard for every outbound HTTP request a workflow can steer (HTTP nodes, webhooks, fetched URLs).
 *
 * Workflow authors control the URL, so without a guard they could reach the cloud metadata service
 * (169.254.169.254), localhost admin ports or the internal network. The guard:
 *  - allows only http:/https:;
 *  - checks IP-literal hosts directly, and resolves DNS names, refusing if ANY address is non-public
 *    (an attacker-controlled zone can mix public and private records);
 *  - connects only to the addresses it checked (pinned via undici's `connect.lookup`), so a second DNS
 *    answer cannot differ from the one checked (DNS rebinding); TLS SNI and Host stay the original name;
 *  - follows redirects itself and re-checks every hop, because a public server can redirect inward;
 *  - lets admins exempt exact "host:port" entries (HTTP_ALLOWLIST) for trusted internal services;
 *  - lets an operator's own configured service (an MCP_SERVERS URL: `operatorHosts`) be on loopback or the LAN, while
 *    its DNS answers are still checked and pinned, so a name that turns to a metadata address is still refused.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { PaiError } from '../errors';

export type Resolver = (hostname: string) => Promise<string[]>;

export interface GuardOptions {
  /** Trusted internal "host:port" entries; matched exactly (case-insensitive), IPv6 as "[::1]:8080". */
  allowlist?: string[];
  /** Returns all addresses of a name; default uses the OS resolver (so /etc/hosts counts too). */
  resolver?: Resolver;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Exact "host:port" entries the operator configured as a service of theirs (MCP_SERVERS URLs). Unlike the
   * allowlist they are not trusted blindly: names are resolved, checked and pinned as for any host, but loopback and
   * private (LAN, unique-local, carrier-grade NAT) addresses are accepted. Link-local, cloud metadata and every other
   * special range stay refused, and so does any other host:port (a redirect away from the entry included).
   */
  operatorHosts?: string[];
}

export type GuardedFetch = (
  url: string | URL,
  /**
   * `secretHeaders`: headers that carry a secret; like Authorization, they are dropped on a cross-origin redirect.
   * `timeoutMs`: one deadline for the redirect chain and body (default 30 s); 0: none of the guard's own, for a
   * long-lived stream whose caller ends it through `signal` (an MCP server's event stream).
   */
  init?: RequestInit & { timeoutMs?: number; secretHeaders?: string[] },
) => Promise<Response>;

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;

const defaultResolver: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const blocked = (message: string) => new PaiError('SSRF_BLOCKED', message);

/** ipaddr.js range names as a person reads them. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private (LAN) address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  uniqueLocal: 'a unique-local (private IPv6) address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  cloudMetadata: 'a cloud metadata service address',
  reserved: 'a reserved address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};
const rangeWords = (range: string) => RANGE_WORDS[range] ?? `an address of the "${range}" range`;

/**
 * A refusal of a non-public address that an admin may lift: it names the exact allowlist entry, because whoever
 * reads it (a user whose Ollama or vLLM runs on their own box) has no other way to learn what would let it through.
 */
function refusedAddress(u: URL, address: string, range: string, resolvedFrom?: string): PaiError {
  const key = hostPortKey(u);
  const what = resolvedFrom
    ? `${resolvedFrom} resolves to ${address}, ${rangeWords(range)}`
    : `it is ${rangeWords(range)}`;
  return new PaiError(
    'SSRF_BLOCKED',
    `Blocked request to ${key}: ${what}, not public. To let PaiFlow call it, add it to HTTP_ALLOWLIST on the ` +
      `server (HTTP_ALLOWLIST=${key}; comma-separated host:port entries) and restart PaiFlow`,
    { details: { host: key, address, range, allowlistEntry: key } },
  );
}

/**
 * Normalises one "host:port" entry through the URL parser so it compares equal to what `new URL()`
 * produces (lower case, canonical IPv4/IPv6 forms). Returns null when there is no explicit port or the
 * host is unparsable: an entry must name one exact service, never a whole host.
 */
function normaliseEntry(entry: string): string | null {
  const m = /^(.+):(\d{1,5})$/.exec(entry.trim());
  if (!m) return null;
  try {
    const port = Number(m[2]);
    if (port < 1 || port > 65535) return null;
    return `${new URL(`http://${m[1]}`).hostname}:${port}`;
  } catch {
    return null;
  }
}

/** Parses the comma-separated HTTP_ALLOWLIST value; malformed entries are dropped. */
export function parseAllowlist(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map(normaliseEntry)
    .filter((e): e is string => e !== null);
}

/** Ranges where an operator's own service may live (GuardOptions.operatorHosts). */
const OPERATOR_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);
/** Cloud metadata services inside those ranges (Alibaba Cloud; AWS over IPv6): refused even for an operator's host. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);

/**
 * Why an address is refused (an ipaddr.js range name), or null when it may be called: public unicast, or with
 * `operatorHost` also loopback and private ranges except the metadata addresses in them.
 */
function refusalReason(ip: string, operatorHost: boolean): string | null {
  const why = nonPublicReason(ip);
  if (!why || !operatorHost || !OPERATOR_RANGES.has(why)) return why;
  return METADATA_ADDRESSES.has(ipaddr.parse(ip).toString()) ? 'cloudMetadata' : null;
}

/** Why an address is non-public (an ipaddr.js range name), or null when it is public unicast. */
function nonPublicReason(ip: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return 'not a valid IP address';
  }
  // Embedded-IPv4 forms (mapped, NAT64, 6to4, Teredo) get their own range names, so they are refused
  // here wholesale: no public service needs them and they are the classic way to smuggle 127.0.0.1.
  const range = addr.range();
  if (range !== 'unicast') return range;
  // Deprecated IPv4-compatible ::a.b.c.d is reported as 'unicast' by ipaddr.js; refuse ::/96 outright.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
  return null;
}

export function isPublicAddress(ip: string): boolean {
  return nonPublicReason(ip) === null;
}

/** Allowlist keys use the effective port, so "api.internal:443" matches https://api.internal/. */
export function hostPortKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}

/**
 * Decides whether `url` may be fetched. `addresses` are the checked addresses to pin the connection to;
 * it is empty when nothing needs pinning (IP literals need no lookup; allowlisted names are trusted).
 */
export async function checkUrl(url: string | URL, opts: GuardOptions = {}): Promise<{ url: URL; addresses: string[] }> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw blocked('Blocked request: invalid URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw blocked(`Blocked request: scheme "${u.protocol}" is not allowed (only http: and https:)`);
  }
  const allow = new Set((opts.allowlist ?? []).map((e) => normaliseEntry(e)).filter(Boolean));
  if (allow.has(hostPortKey(u))) return { url: u, addresses: [] };
  const operatorHost = (opts.operatorHosts ?? []).some((e) => normaliseEntry(e) === hostPortKey(u));

  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) {
    const why = refusalReason(host, operatorHost);
    if (why) throw refusedAddress(u, host, why);
    return { url: u, addresses: [] };
  }

  let addresses: string[];
  try {
    addresses = await (opts.resolver ?? defaultResolver)(host);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new PaiError('DNS_LOOKUP_FAILED', `Could not resolve host ${host}${code ? ` (${code})` : ''}`, {
      retryable: code === 'EAI_AGAIN',
      cause: err,
    });
  }
  if (addresses.length === 0) throw blocked(`Blocked request to ${host}: it resolved to no addresses`);
  for (const a of addresses) {
    const why = refusalReason(a, operatorHost);
    if (why) throw refusedAddress(u, a, why, host);
  }
  return { url: u, addresses };
}

/** An Agent whose DNS lookup can only ever return the already-checked addresses. */
function pinnedAgent(addresses: string[]): Agent {
  const entries = addresses.map((address) => ({ address, family: net.isIP(address) }));
  return new Agent({
    connect: {
      lookup: (
        _hostname: string,
        options: { all?: boolean; family?: number | string },
        cb: (...args: unknown[]) => void,
      ) => {
        const fam = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
        const list = fam ? entries.filter((e) => e.family === fam) : entries;
        if (list.length === 0)
          return cb(Object.assign(new Error('no checked address for family'), { code: 'ENOTFOUND' }));
        // Node asks for all addresses when happy-eyeballs (autoSelectFamily) is on, else a single one.
        if (options.all) cb(null, list);
        else cb(null, list[0].address, list[0].family);
      },
    } as Agent.Options['connect'],
  });
}

/** Credentials must not follow a redirect to another origin (same rule as the Fetch spec / browsers). */
const CROSS_ORIGIN_DROP = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

export function createGuardedFetch(opts: GuardOptions = {}): GuardedFetch {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  return async (input, init = {}) => {
    const { timeoutMs = DEFAULT_TIMEOUT_MS, secretHeaders = [], ...rest } = init;
    const dropOnCrossOrigin = [...CROSS_ORIGIN_DROP, ...secretHeaders.map((h) => h.toLowerCase())];
    // One deadline for the whole redirect chain and body, not per hop.
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signal = rest.signal && timeout ? AbortSignal.any([rest.signal, timeout]) : (rest.signal ?? timeout);

    let reqInit: RequestInit = rest;
    let current: string | URL = input;
    for (let hop = 0; ; hop++) {
      const { url, addresses } = await checkUrl(current, opts);
      const agent = addresses.length > 0 ? pinnedAgent(addresses) : undefined;
      let res;
      try {
        res = await undiciFetch(url, {
          ...(reqInit as UndiciRequestInit),
          redirect: 'manual',
          signal,
          ...(agent ? { dispatcher: agent } : {}),
        });
      } catch (err) {
        void agent?.close();
        throw err;
      }
      // close() is graceful: connections are released once the in-flight response body is consumed.
      void agent?.close();

      const location = res.headers.get('location');
      if (![301, 302, 303, 307, 308].includes(res.status) || location === null) return res as unknown as Response;

      await res.body?.cancel();
      if (hop >= maxRedirects) {
        throw new PaiError(
          'TOO_MANY_REDIRECTS',
          `Too many redirects (more than ${maxRedirects}) starting from ${new URL(input).hostname}`,
        );
      }
      const next = new URL(location, url);
      const method = (reqInit.method ?? 'GET').toUpperCase();
      const headers = new Headers(reqInit.headers);
      if (
        (res.status === 303 && method !== 'HEAD') ||
        ((res.status === 301 || res.status === 302) && method === 'POST')
      ) {
        reqInit = { ...reqInit, method: 'GET', body: undefined };
        for (const h of BODY_HEADERS) headers.delete(h);
      }
      if (next.origin !== url.origin) for (const h of dropOnCrossOrigin) headers.delete(h);
      reqInit = { ...reqInit, headers };
      current = next;
    }
  };
}

/**
 * The guard's own error inside an error a client library made of it. SDKs (openai, the MCP client) call the
 * guarded fetch and wrap what it throws (openai: APIConnectionError with the error as `cause`), which would turn
 * "this address is refused, here is how to allow it" into "could not connect". A PaiError in the cause chain can
 * only come from our fetch, so it is what happened.
 */
export function guardErrorIn(err: unknown): PaiError | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 8; depth++) {
    if (e instanceof PaiError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
