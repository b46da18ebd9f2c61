/**
 * What choosing each request's language costs the API: route() (lib/http/errors.ts) runs the handler inside an
 * AsyncLocalStorage holding the request, so error answers made deeper down read its language (?lang=, the cookie,
 * Accept-Language) when they are made. Timed against the same wrapper without it, on a trivial handler (so the
 * figure is the whole added cost per request, not diluted by a run), with a browser-like Cookie and Accept-Language;
 * alternating blocks.
 * `npm run bench -- request-language` (BENCH_CALLS per block, default 200,000; BENCH_REPS blocks, default 9).
 */
import { route } from '@/lib/http/errors';

type Handler = (req: Request, ctx: unknown) => Promise<Response>;

/** The wrapper as it was before the language: try/catch only. */
function plainRoute(fn: Handler): Handler {
  return async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch {
      return Response.json({ error: { code: 'INTERNAL' } }, { status: 500 });
    }
  };
}

const OK = new Response('ok');
const handler: Handler = async () => OK;

async function block(wrapped: Handler, req: Request, calls: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await wrapped(req, undefined);
  return Number(process.hrtime.bigint() - t0) / calls; // ns per call
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runRequestLanguageBench() {
  const calls = Number(process.env.BENCH_CALLS ?? 200_000);
  const reps = Number(process.env.BENCH_REPS ?? 9);
  const req = new Request('http://localhost/api/workflows/wf_1', {
    headers: {
      cookie: 'paiflow_session=s_0123456789abcdef; paiflow-tz=Asia%2FShanghai; paiflow-locale=zh-CN',
      'accept-language': 'zh-CN,zh;q=0.9,en-US;q=0.8,en;q=0.7',
    },
  });
  const withLanguage = route(handler);
  const without = plainRoute(handler);
  await block(withLanguage, req, calls / 4); // warm-up
  await block(without, req, calls / 4);
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < reps; r++) {
    b.push(await block(without, req, calls));
    a.push(await block(withLanguage, req, calls));
  }
  const added = median(a.map((x, i) => x - b[i]));
  return [
    {
      wrapper: 'route() with the request language',
      nsPerCall: Math.round(median(a)),
      plainNsPerCall: Math.round(median(b)),
      addedUsPerRequest: Number((added / 1000).toFixed(2)),
    },
  ];
}

if (process.argv[1]?.endsWith('request-language.bench.ts')) {
  runRequestLanguageBench().then((rows) => console.table(rows));
}
