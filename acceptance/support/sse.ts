/**
 * Reads a Server-Sent Events stream the way a browser's EventSource does (fields `id`, `event`, `data`, blank line
 * ends an event), over fetch, until the server closes it or `stopWhen` says enough.
 */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  /** `data` parsed as JSON where it is JSON. */
  json?: any;
}

export interface SseOptions {
  headers?: Record<string, string>;
  method?: string;
  body?: unknown;
  /** Stop reading (and close) once this returns true for an event. */
  stopWhen?: (e: SseEvent) => boolean;
  timeoutMs?: number;
}

export interface SseAnswer {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** The body when the answer was not an event stream (an error). */
  text?: string;
}

export async function readSse(url: string, o: SseOptions = {}): Promise<SseAnswer> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), o.timeoutMs ?? 60_000);
  try {
    const res = await fetch(url, {
      method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
      headers: {
        accept: 'text/event-stream',
        ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...o.headers,
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: ac.signal,
    });
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
      return { status: res.status, headers: res.headers, events: [], text: await res.text() };
    const events: SseEvent[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    let current: SseEvent = { data: '' };
    let hasData = false;
    const reader = res.body!.getReader();
    outer: for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line === '') {
          if (hasData) {
            try {
              current.json = JSON.parse(current.data);
            } catch {
              // not JSON (e.g. the OpenAI stream's [DONE])
            }
            events.push(current);
            if (o.stopWhen?.(current)) {
              await reader.cancel().catch(() => {});
              break outer;
            }
          }
          current = { data: '' };
          hasData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') {
          current.data = hasData ? `${current.data}\n${value}` : value;
          hasData = true;
        } else if (field === 'id') current.id = value;
        else if (field === 'event') current.event = value;
      }
    }
    return { status: res.status, headers: res.headers, events };
  } finally {
    clearTimeout(timer);
  }
}
