/**
 * A local OTLP/HTTP receiver for tests: accepts `POST /v1/traces` with the JSON encoding (what
 * @opentelemetry/exporter-trace-otlp-http sends), keeps every request's raw body and headers, and flattens the spans
 * with their resource and attributes decoded. `mode: 'hang'` accepts connections and never answers (a dead
 * collector); `mode: 'refuse'` gives a port nothing listens on.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type AttrValue = string | number | boolean | AttrValue[] | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  status: { code?: number; message?: string };
  attributes: Record<string, AttrValue>;
  events: { name: string; attributes: Record<string, AttrValue> }[];
  resource: Record<string, AttrValue>;
}

export interface OtlpReceiver {
  /** Base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  headers: IncomingHttpHeaders[];
  /** Connections accepted so far (a hanging collector counts the exports it swallowed). */
  connections: number;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

function value(v: AnyValue): AttrValue {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}
const attrs = (kvs: KeyValue[] | undefined) => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, value(kv.value)]));
const ms = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

export async function startOtlpReceiver(mode: 'ok' | 'hang' | 'refuse' = 'ok'): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (mode === 'hang') return; // read nothing, answer nothing
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      headers.push(req.headers);
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      for (const rs of JSON.parse(body).resourceSpans ?? []) {
        const resource = attrs(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              startMs: ms(s.startTimeUnixNano),
              endMs: ms(s.endTimeUnixNano),
              status: s.status ?? {},
              attributes: attrs(s.attributes),
              events: (s.events ?? []).map((e: { name: string; attributes?: KeyValue[] }) => ({
                name: e.name,
                attributes: attrs(e.attributes),
              })),
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const r: OtlpReceiver = {
    url: '',
    spans,
    bodies,
    headers,
    connections: 0,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  server.on('connection', (s: Socket) => {
    r.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${port}`;
  if (mode === 'refuse') await r.close(); // the port is free again: connections are refused
  return r;
}
