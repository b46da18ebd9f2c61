// Guarantees: templates are data paths, never code — injection attempts resolve to nothing, execute nothing and pollute
// no prototype — while normal paths, indexes, quoted keys, fallbacks and typing resolve as documented.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import {
  collectRefs,
  findRefs,
  lookup,
  parsePath,
  renderTemplate,
  renderText,
  resolveDeep,
  type TemplateScope,
} from '@/engine/template/resolve';
import { createHarness, type Harness } from '../support/harness';

const registry = createDefaultRegistry();

const scope = (): TemplateScope => ({
  inputs: { question: 'why?', zero: 0, no: false, empty: '', nothing: null, list: ['a', 'b'], obj: { k: 'v' } },
  nodes: {
    n1: {
      status: 'succeeded',
      output: {
        text: 'hello',
        count: 3,
        flag: true,
        user: { name: 'Ada', tags: ['x', 'y'] },
        'first name': 'Grace',
        'x-y': 'dash',
        nested: { deep: { deeper: [{ v: 1 }, { v: 2 }] } },
      },
    },
    n3: {
      status: 'succeeded',
      output: {
        items: [{ title: 'first' }, { title: 'second' }],
        matrix: [
          [1, 2],
          [3, 4],
        ],
      },
    },
    skipped: { status: 'skipped', output: undefined },
  },
});

const protoKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
const fnProtoKeys = () => Object.getOwnPropertyNames(Function.prototype).sort();
let protoBefore: string[];
let fnProtoBefore: string[];
beforeAll(() => {
  protoBefore = protoKeys();
  fnProtoBefore = fnProtoKeys();
});
afterEach(() => {
  expect(protoKeys()).toEqual(protoBefore);
  expect(fnProtoKeys()).toEqual(fnProtoBefore);
  expect(({} as any).polluted).toBeUndefined();
  expect((globalThis as any).__pwned).toBeUndefined();
});

const INJECTIONS = [
  "{{constructor.constructor('return process')()}}",
  "{{constructor.constructor('globalThis.__pwned = 1')()}}",
  "{{n1.output.constructor.constructor('globalThis.__pwned = 1')()}}",
  '{{__proto__.polluted}}',
  '{{__proto__}}',
  '{{inputs.__proto__}}',
  '{{inputs.__proto__.polluted}}',
  '{{inputs.constructor}}',
  '{{inputs.constructor.prototype}}',
  '{{inputs.constructor.name}}',
  '{{n1.output.constructor.name}}',
  '{{n1.output.__proto__}}',
  '{{n1.output.prototype}}',
  '{{n1["constructor"]}}',
  "{{n1.output['__proto__']}}",
  '{{n1.output["constructor"]["name"]}}',
  '{{prototype}}',
  '{{constructor}}',
  "{{require('child_process').execSync('id')}}",
  '{{process.exit(1)}}',
  '{{process.env}}',
  '{{globalThis.process}}',
  '{{this}}',
  '{{inputs.question; globalThis.__pwned = 1}}',
  '{{inputs.question + 1}}',
  '{{inputs[question]}}',
  '{{ inputs.empty || constructor.constructor("globalThis.__pwned = 1")() }}',
];

describe('injection attempts are inert', () => {
  it.each(INJECTIONS)('%s renders to nothing when it is the whole string', (t) => {
    expect(renderTemplate(t, scope())).toBeUndefined();
  });

  it.each(INJECTIONS)('%s interpolates as empty text', (t) => {
    expect(renderTemplate(`<${t}>`, scope())).toBe('<>');
    expect(renderText(t, scope())).toBe('');
  });

  it('paths through forbidden keys are not parsed at all', () => {
    for (const p of [
      'constructor',
      'a.constructor',
      'a.__proto__',
      'a["__proto__"]',
      "a['prototype']",
      'a.b.prototype.c',
    ])
      expect(parsePath(p), p).toBeNull();
    for (const p of ['a.b(1)', 'a + b', 'a;b', 'a..b', '.a', 'a.', 'a[b]', 'a[-1]', 'a[1.5]', '1a', '', 'a b'])
      expect(parsePath(p), p).toBeNull();
  });

  it('lookup reads own properties only, even when handed a forbidden path directly', () => {
    const s = scope();
    expect(lookup(s, ['constructor'])).toBeUndefined();
    expect(lookup(s, ['n1', 'constructor'])).toBeUndefined();
    expect(lookup(s, ['n1', 'output', '__proto__'])).toBeUndefined();
    expect(lookup(s, ['inputs', 'toString'])).toBeUndefined();
    expect(lookup(s, ['inputs', 'hasOwnProperty'])).toBeUndefined();
    expect(lookup(s, ['inputs', 'question', 'length'])).toBeUndefined();
    expect(lookup(s, ['toString'])).toBeUndefined();
    expect(lookup(s, ['n1', 'output', 'user', 'tags', 'constructor'])).toBeUndefined();
  });

  it('inherited members are never reachable, only own data', () => {
    expect(renderTemplate('{{inputs.toString}}', scope())).toBeUndefined();
    expect(renderTemplate('{{inputs.valueOf}}', scope())).toBeUndefined();
    expect(renderTemplate('{{n1.output.user.hasOwnProperty}}', scope())).toBeUndefined();
    expect(renderTemplate('{{inputs.list.map}}', scope())).toBeUndefined();
    expect(renderTemplate('{{n1.output.text.length}}', scope())).toBeUndefined();
  });

  it('resolveDeep drops __proto__ / constructor / prototype keys instead of assigning them', () => {
    const doc = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": ' +
        '"yes"}}, "ok": "{{n1.output.text}}", "arr": [{"__proto__": {"polluted": 1}}]}',
    );
    const out = resolveDeep(doc, scope()) as any;
    expect(out).toEqual({ ok: 'hello', arr: [{}] });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(out.arr[0])).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
  });

  it('text that is not a {{ref}} at all stays literal text', () => {
    for (const t of ['{{`${process}`}}', '{ {constructor} }', '{{{x}}', '${process.env}']) {
      const out = renderTemplate(t, scope());
      expect(typeof out === 'string' && out.includes('process') === t.includes('process')).toBe(true);
    }
    expect(renderTemplate('{{`${process}`}}', scope())).toBe('{{`${process}`}}');
  });

  it('values containing template syntax are not evaluated a second time', () => {
    const s = scope();
    s.inputs.evil = "{{constructor.constructor('globalThis.__pwned = 1')()}} {{n1.output.text}}";
    expect(renderTemplate('{{inputs.evil}}', s)).toBe(s.inputs.evil);
    expect(renderTemplate('say: {{inputs.evil}}', s)).toBe(`say: ${s.inputs.evil}`);
    expect(resolveDeep({ a: ['{{inputs.evil}}'] }, s)).toEqual({ a: [s.inputs.evil] });
  });

  it('a node id that names an Object.prototype member resolves nothing', () => {
    const s = scope();
    for (const id of ['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      expect(renderTemplate(`{{${id}}}`, s), id).toBeUndefined();
      expect(renderTemplate(`{{${id}.output}}`, s), id).toBeUndefined();
    }
  });
});

describe('normal resolution', () => {
  it('nested paths, array indexes and quoted keys', () => {
    const s = scope();
    expect(renderTemplate('{{n1.output.user.name}}', s)).toBe('Ada');
    expect(renderTemplate('{{n1.output.user.tags[1]}}', s)).toBe('y');
    expect(renderTemplate('{{n3.output.items[0].title}}', s)).toBe('first');
    expect(renderTemplate('{{ n3.output.items[1]["title"] }}', s)).toBe('second');
    expect(renderTemplate('{{n3.output.matrix[1][0]}}', s)).toBe(3);
    expect(renderTemplate('{{n1.output.nested.deep.deeper[1].v}}', s)).toBe(2);
    expect(renderTemplate('{{n1.output["first name"]}}', s)).toBe('Grace');
    expect(renderTemplate("{{n1.output['x-y']}}", s)).toBe('dash');
    expect(renderTemplate('{{n1.output.x-y}}', s)).toBe('dash'); // identifiers may contain "-"
    expect(renderTemplate('{{n3.output.items[5].title}}', s)).toBeUndefined();
    expect(renderTemplate('{{inputs.list[0]}}', s)).toBe('a');
    expect(renderTemplate('{{inputs.list.length}}', s)).toBe(2); // an array's own length
    expect(renderTemplate('{{n1.status}}', s)).toBe('succeeded');
    expect(renderTemplate('{{missing.output.text}}', s)).toBeUndefined();
    expect(renderTemplate('{{inputs.question.deeper}}', s)).toBeUndefined();
  });

  it('fallback chains take the first non-empty value; literals end the chain', () => {
    const s = scope();
    expect(renderTemplate('{{skipped.output.text || n1.output.text}}', s)).toBe('hello');
    expect(renderTemplate('{{skipped.output.text || missing.x || "none"}}', s)).toBe('none');
    expect(renderTemplate("{{inputs.empty || inputs.nothing || 'lit'}}", s)).toBe('lit');
    expect(renderTemplate('{{inputs.question || "unused"}}', s)).toBe('why?');
    expect(renderTemplate('{{"first" || n1.output.text}}', s)).toBe('first');
    expect(renderTemplate('{{inputs.zero || "x"}}', s)).toBe(0); // 0 and false are values, not "empty"
    expect(renderTemplate('{{inputs.no || "x"}}', s)).toBe(false);
    expect(renderTemplate('{{skipped.output || missing.x}}', s)).toBeUndefined();
    expect(renderTemplate('[{{skipped.output.text || "fallback"}}]', s)).toBe('[fallback]');
    expect(renderTemplate('{{ inputs.empty || "a || b" }}', s)).toBe('a || b');
    expect(renderTemplate("{{ inputs.empty || '||' }}", s)).toBe('||');
  });

  it('a whole-string ref keeps its type', () => {
    const s = scope();
    expect(renderTemplate('{{n1.output.count}}', s)).toBe(3);
    expect(renderTemplate('{{n1.output.flag}}', s)).toBe(true);
    expect(renderTemplate('{{ n1.output.user }}', s)).toEqual({ name: 'Ada', tags: ['x', 'y'] });
    expect(renderTemplate('{{inputs.list}}', s)).toEqual(['a', 'b']);
    expect(renderTemplate('{{inputs.nothing}}', s)).toBeUndefined(); // null is "empty" in a chain
    expect(renderTemplate('{{inputs}}', s)).toEqual(s.inputs);
  });

  it('interpolation stringifies: objects as JSON, missing and null as empty', () => {
    const s = scope();
    expect(renderTemplate('count={{n1.output.count}} flag={{n1.output.flag}}', s)).toBe('count=3 flag=true');
    expect(renderTemplate('user={{n1.output.user}}', s)).toBe('user={"name":"Ada","tags":["x","y"]}');
    expect(renderTemplate('list={{inputs.list}}', s)).toBe('list=["a","b"]');
    expect(renderTemplate('a{{missing.x}}b{{inputs.nothing}}c', s)).toBe('abc');
    expect(renderTemplate(' {{n1.output.count}}', s)).toBe(' 3');
    expect(renderTemplate('{{n1.output.text}}{{n1.output.count}}', s)).toBe('hello3');
    expect(renderText('{{n1.output.user}}', s)).toBe('{"name":"Ada","tags":["x","y"]}');
    expect(renderTemplate('no refs {here}', s)).toBe('no refs {here}');
  });

  it('resolveDeep resolves every string and keeps other leaves', () => {
    const s = scope();
    const out = resolveDeep(
      { a: '{{n1.output.count}}', b: ['x {{n1.output.text}}', 7, null, true], c: { d: '{{n1.output.user.tags}}' } },
      s,
    );
    expect(out).toEqual({ a: 3, b: ['x hello', 7, null, true], c: { d: ['x', 'y'] } });
  });

  it('findRefs and collectRefs report every ref with its JSON path', () => {
    expect(findRefs('a {{ x.y }} b {{z}}').map((r) => r.expr)).toEqual(['x.y', 'z']);
    const refs = collectRefs({ a: '{{x}}', list: ['{{y}}', { 'odd key': '{{z}}' }] }, 'nodes[2].data.config');
    expect(refs.map((r) => [r.path, r.ref.expr])).toEqual([
      ['nodes[2].data.config.a', 'x'],
      ['nodes[2].data.config.list[0]', 'y'],
      ['nodes[2].data.config.list[1]["odd key"]', 'z'],
    ]);
  });
});

function graphWith(template: string, extraInputs: string[] = []): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: {
          config: {
            inputs: [
              { name: 'q', type: 'string', required: true },
              ...extraInputs.map((name) => ({ name, type: 'string', required: false })),
            ],
          },
        },
      },
      { id: 'n1', type: 'template', position: { x: 0, y: 0 }, data: { config: { template: 'x' } } },
      { id: 't', type: 'template', position: { x: 0, y: 0 }, data: { config: { template } } },
      {
        id: 'end',
        type: 'end',
        position: { x: 0, y: 0 },
        data: { config: { outputs: [{ name: 'out', value: '{{t.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'a', source: 'start', target: 'n1' },
      { id: 'b', source: 'n1', target: 't' },
      { id: 'c', source: 't', target: 'end' },
    ],
  };
}

describe('validation', () => {
  /** Syntactically valid paths that simply name no node: UNRESOLVED_REF; everything else is not a path at all. */
  const PATH_LIKE = new Set(['{{process.env}}', '{{globalThis.process}}', '{{this}}']);
  it.each(INJECTIONS)('flags %s with the config path and never accepts it', (t) => {
    const v = validateGraph(graphWith(`text ${t}`), registry);
    expect(v.ok).toBe(false);
    const code = PATH_LIKE.has(t) ? 'UNRESOLVED_REF' : 'INVALID_REF';
    const e = v.errors.find((x) => x.code === code);
    expect(e, JSON.stringify(v.errors)).toBeDefined();
    expect(e!.path).toBe('nodes[2].data.config.template');
    expect(e!.nodeIds).toEqual(['t']);
  });

  it('distinguishes INVALID_REF (not a path) from UNRESOLVED_REF (a path to nothing)', () => {
    const codes = (t: string) => validateGraph(graphWith(t, ['opt']), registry).errors.map((e) => e.code);
    expect(codes('{{inputs.q}} {{n1.output.text}} {{inputs.opt || "d"}} {{inputs["q"]}}')).toEqual([]);
    expect(codes('{{n1.output.text(}}')).toEqual(['INVALID_REF']);
    expect(codes('{{ }}')).toEqual(['INVALID_REF']);
    expect(codes('{{inputs.q || }}')).toEqual(['INVALID_REF']);
    expect(codes('{{inputs.nope}}')).toEqual(['UNRESOLVED_REF']);
    expect(codes('{{ghost.output}}')).toEqual(['UNRESOLVED_REF']);
    expect(codes('{{t.output.text}}')).toEqual(['UNRESOLVED_REF']); // itself: not upstream
    expect(codes('{{toString.output}}')).toEqual(['UNRESOLVED_REF']);
  });
});

describe('through a real run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('user data holding template syntax or __proto__ keys is carried as data, not executed or merged', async () => {
    const graph = graphWith('Q: {{inputs.q}} | S: {{inputs.secret || "none"}}', ['secret']);
    graph.nodes.splice(3, 0, {
      id: 'j',
      type: 'template',
      position: { x: 0, y: 0 },
      data: {
        config: {
          format: 'json',
          template:
            '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": ' +
            '{"polluted": "yes"}}, "q": "{{inputs.q}}", "n": "{{n1.output.text}}"}',
        },
      },
    });
    graph.edges.push({ id: 'd', source: 'n1', target: 'j' }, { id: 'e', source: 'j', target: 'end' });
    (graph.nodes[4].data.config as any).outputs.push({ name: 'json', value: '{{j.output.json}}' });
    expect(validateGraph(graph, registry).errors).toEqual([]);

    const wf = await h.createWorkflow(graph);
    const q = "{{inputs.secret}} {{constructor.constructor('globalThis.__pwned = 1')()}}";
    const run = await h.runToEnd(wf, { q, secret: 'TOP-SECRET' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs!.out).toBe(`Q: ${q} | S: TOP-SECRET`);
    expect(run.outputs!.json).toEqual({ q, n: 'x' });
    expect(Object.getPrototypeOf(run.outputs!.json)).toBe(Object.prototype);
  });

  it('a graph with an injected ref never starts a run', async () => {
    const wf = await h.createWorkflow(graphWith("{{constructor.constructor('globalThis.__pwned = 1')()}}"));
    await expect(h.runToEnd(wf, { q: 'x' })).rejects.toMatchObject({ code: 'INVALID_REF' });
  });
});
