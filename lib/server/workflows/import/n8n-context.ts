/**
 * What converting one n8n workflow needs while it goes node by node. n8n passes items (`$json`) from node to node;
 * PaiFlow passes each node's output, read by reference. So for every n8n node this knows where the `$json` it
 * hands on lives in PaiFlow — its sources: `inputs` for a trigger, `set.output.json` for Edit Fields,
 * `http.output.body` for an HTTP request, `llm.output.text` for `$json.message.content` of an OpenAI node … — and
 * nodes that pass items through (IF, Switch, Merge, a dropped node) hand on their inputs' sources.
 */
import { GraphBuilder, label, positionOf, type ImportedNode } from './graph-builder';
import { parseExpression, splitTemplate, type Segment } from './n8n-expressions';
import { identifier, joinPath, literal, refOf } from './refs';
import { ReportBuilder, t, type Text } from './report';
import type { StartInput } from './dify-context';
import { dict, str } from './values';

export interface N8nNode {
  name: string;
  type: string;
  typeVersion?: number;
  id?: string;
  position?: unknown;
  parameters?: Record<string, unknown>;
  disabled?: boolean;
  credentials?: Record<string, unknown>;
}

/** What a node's `$json` is in PaiFlow (see the header). */
export interface Source {
  kind: 'inputs' | 'json' | 'body' | 'plain' | 'openai' | 'agent' | 'chain' | 'parsed' | 'extracted' | 'split';
  base: string;
  /** Split Out (n8n-lists.ts): the field an item that is no object is put under (`$json.<field>` is the item). */
  field?: string;
  /** OpenAI with "Output Content as JSON": `message.content.x` is `output.json.x`. */
  jsonOutput?: boolean;
  /** Edit Fields that keeps the other fields: the names it sets, and where the others come from. */
  assigned?: string[];
  rest?: Source[];
}

export interface Link {
  from: string;
  output: number;
  to: string;
  input: number;
}

export class N8nContext {
  readonly g = new GraphBuilder();
  readonly report = new ReportBuilder();
  readonly idOf = new Map<string, string>();
  readonly inputs = new Map<string, StartInput>();
  /** Nodes that pass their input on unchanged (IF, Switch, Merge, NoOp) or were dropped. */
  readonly passThrough = new Set<string>();
  /** Sort / Limit / Remove Duplicates folded into the Split Out before them (n8n-lists.ts): name → what it did. */
  readonly folded = new Map<string, Text>();
  /** Branching nodes: n8n output index → PaiFlow source handles. */
  readonly handles = new Map<string, Map<number, string[]>>();
  current = '';
  /** The text of the canvas's sticky notes, for the workflow's description. */
  readonly notes: string[] = [];
  private readonly memo = new Map<string, Source[]>();

  constructor(
    readonly nodes: ReadonlyMap<string, N8nNode>,
    readonly links: readonly Link[],
    /** Node name → its own sources (set while converting; triggers' are the start inputs). */
    readonly own: Map<string, Source[]>,
  ) {}

  add(n: N8nNode, type: string, config: Record<string, unknown>, index: number): ImportedNode {
    const id = this.idOf.get(n.name)!;
    return this.g.addNode({
      id,
      type,
      position: positionOf(n.position, index),
      data: { label: label(n.name), config },
    });
  }

  note(why: Text, name = this.current): void {
    this.report.note(this.nodes.get(name)?.id ?? name, why);
  }

  declare(input: StartInput): string {
    if (!this.inputs.has(input.name)) this.inputs.set(input.name, input);
    return `inputs.${input.name}`;
  }

  predecessors(name: string, input?: number): string[] {
    return this.links
      .filter((l) => l.to === name && (input === undefined || l.input === input))
      .sort((a, b) => a.input - b.input)
      .map((l) => l.from);
  }

  /** The sources of the `$json` node `name` hands on. */
  sourcesOf(name: string, seen = new Set<string>()): Source[] {
    if (this.memo.has(name)) return this.memo.get(name)!;
    if (seen.has(name)) return [];
    seen.add(name);
    const out = this.passThrough.has(name) ? this.inputSources(name, undefined, seen) : (this.own.get(name) ?? []);
    this.memo.set(name, out);
    return out;
  }

  /** The sources of node `name`'s `$json` (its input; one input of a Merge). */
  inputSources(name: string, input?: number, seen = new Set<string>()): Source[] {
    const all = this.predecessors(name, input).flatMap((p) => this.sourcesOf(p, new Set(seen)));
    return all.filter((s, i) => all.findIndex((x) => x.base === s.base) === i);
  }

  /** PaiFlow paths of a field of `$json`, first to last alternative. */
  fieldPaths(sources: readonly Source[], path: Segment[]): string[] {
    return sources.flatMap((s) => {
      const [a, b, ...more] = path;
      switch (s.kind) {
        case 'inputs':
          if (a === undefined) return [s.base];
          if (typeof a !== 'string') return [];
          return [joinPath(s.base, [this.declareOnDemand(a), ...path.slice(1)])];
        case 'openai':
          if (a === 'message' && b === 'content')
            return [s.jsonOutput ? joinPath(`${s.base}.json`, more) : `${s.base}.text`];
          if (a === 'text' || a === 'content') return [`${s.base}.text`];
          return [joinPath(s.base, path)];
        case 'agent':
          return [a === 'output' ? joinPath(`${s.base}.text`, path.slice(1)) : joinPath(s.base, path)];
        case 'chain':
          return [a === 'text' ? `${s.base}.text` : joinPath(s.base, path)];
        case 'parsed':
          return [a === 'output' ? joinPath(`${s.base}.json`, path.slice(1)) : joinPath(s.base, path)];
        case 'extracted':
          return [a === 'output' ? joinPath(s.base, path.slice(1)) : joinPath(s.base, path)];
        case 'split':
          return a === s.field ? [joinPath(s.base, path.slice(1))] : [joinPath(s.base, path)];
        case 'json':
          if (s.rest && typeof a === 'string' && !s.assigned?.includes(a)) return this.fieldPaths(s.rest, path);
          return [joinPath(s.base, path)];
        default:
          return [joinPath(s.base, path)];
      }
    });
  }

  /** A manual or schedule trigger's `$json.x`: x becomes an optional start input. */
  private declareOnDemand(name: string): string {
    const id = identifier(name, 'input');
    if (!this.inputs.has(id)) this.declare({ name: id, type: 'string', required: false });
    return id;
  }

  /**
   * A parameter as PaiFlow text: `=`-expressions whose `{{ }}` are paths become references; those that are code
   * are left out and reported. In a JSON document (`json`), JSON.stringify(x) becomes a quoted reference, which
   * PaiFlow fills with x as JSON.
   */
  text(value: unknown, opts: { json?: boolean; field?: string } = {}): string {
    if (typeof value !== 'string') return value === undefined || value === null ? '' : String(value);
    let out = '';
    for (const part of splitTemplate(value)) {
      if (!part.expression) {
        out += literal(part.text);
        continue;
      }
      const parsed = parseExpression(part.text);
      if (!parsed) {
        this.codeLeftOut(part.text, opts.field);
        continue;
      }
      const paths = parsed.refs.flatMap((r) => this.refPaths(r.node, r.path));
      if (!paths.length) {
        this.note(
          t(
            `{{ ${part.text} }} reads a node PaiFlow does not have; it was left out.`,
            `{{ ${part.text} }} 读取的节点在 PaiFlow 中不存在，已移除。`,
          ),
        );
        continue;
      }
      const ref = refOf(paths, parsed.fallback);
      out += opts.json && parsed.stringify ? `"${ref}"` : ref;
    }
    return out;
  }

  private refPaths(node: string | undefined, path: Segment[]): string[] {
    if (node === undefined) return this.fieldPaths(this.inputSources(this.current), path);
    if (!this.nodes.has(node)) return [];
    return this.fieldPaths(this.sourcesOf(node), path);
  }

  codeLeftOut(code: string, field?: string): void {
    const shown = code.length > 80 ? `${code.slice(0, 80)}…` : code;
    this.note(
      t(
        `The expression {{ ${shown} }}${field ? ` in ${field}` : ''} is code, which PaiFlow's references do not run; ` +
          'it was left out: rewrite it as a reference or compute it in a Code node.',
        `${field ? `${field} 中的` : ''}表达式 {{ ${shown} }} 是代码，PaiFlow 的引用不执行代码，已移除：` +
          '请改写为引用，或在代码节点中计算。',
      ),
    );
  }

  /** A model sub-node's settings (lmChatOpenAi …): model name, temperature, max tokens. */
  modelOf(name: string | undefined): { model: string; temperature?: number; maxTokens?: number } {
    const p = dict(name ? this.nodes.get(name)?.parameters : undefined);
    const m = p.model ?? p.modelName ?? p.modelId;
    const model = this.modelName(str(dict(m).value, str(m)));
    const o = dict(p.options);
    return {
      model,
      ...(typeof o.temperature === 'number' ? { temperature: Math.min(2, Math.max(0, o.temperature)) } : {}),
      ...(typeof o.maxTokens === 'number' && o.maxTokens >= 1 ? { maxTokens: Math.round(o.maxTokens) } : {}),
    };
  }

  /**
   * A model name: `gpt-4o` as it is; an expression that is a path (`={{ $json.model }}`) becomes the reference to
   * that value (a node's model may be a {{ref}}); other code, or nothing, the default model, reported.
   */
  modelName(raw: string): string {
    if (!raw.startsWith('=')) return raw.trim() || 'gpt-4o-mini';
    const ref = this.text(raw, { field: 'model' }).trim();
    if (/^\{\{[^{}]+\}\}$/.test(ref)) return ref;
    this.note(
      t(
        `Its model is chosen by the expression ${raw.slice(1, 80)}, which PaiFlow could not keep: it uses gpt-4o-mini.`,
        `其模型由表达式 ${raw.slice(1, 80)} 决定，PaiFlow 无法保留：改用 gpt-4o-mini。`,
      ),
    );
    return 'gpt-4o-mini';
  }

  /** Sub-nodes attached to `name` by an `ai_*` connection type. */
  attached(name: string, kind: string): string[] {
    return this.subLinks.filter((l) => l.to === name && l.kind === kind).map((l) => l.from);
  }

  subLinks: Array<{ from: string; to: string; kind: string }> = [];

  /** An n8n-shaped value a Code node sees, for the shim (n8n-code.ts): which kind, and where. */
  shaped(sources: readonly Source[]): Array<Record<string, unknown>> {
    return sources.map((s) => ({
      k: s.kind,
      v: `{{${s.base}}}`,
      ...(s.jsonOutput ? { j: true } : {}),
      ...(s.rest ? { rest: this.shaped(s.rest) } : {}),
    }));
  }
}
