/**
 * Builds the PaiFlow graph an import makes: readable node ids from the source's titles, edges without duplicates,
 * and dropped nodes taken out with their neighbours joined (a → dropped → b becomes a → b, keeping a's branch).
 */
import { NODE_ID_RE, RESERVED_NODE_IDS } from '@/engine/graph/schema';

export interface ImportedNode {
  id: string;
  type: string;
  position: { x: number; y: number };
  data: { label: string; config: Record<string, unknown>; [key: string]: unknown };
}

export interface ImportedEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string;
}

/** A path that ended at dropped nodes (`via`, first to last) and now ends at `source` (on its branch). */
export interface LostEnd {
  source: string;
  sourceHandle?: string;
  via: string[];
}

export interface ImportedGraph {
  nodes: ImportedNode[];
  edges: ImportedEdge[];
}

const MAX_ID = 48;
const MAX_LABEL = 200;

/** `Write a Poem!` → `write_a_poem`; '' when nothing of it fits a node id (a Chinese title, say). */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_ID)
    .replace(/_+$/, '');
  return /^[a-z]/.test(s) ? s : s ? `n_${s}`.slice(0, MAX_ID) : '';
}

/** A position from the source's, or a place in a row when it has none. */
export function positionOf(p: unknown, index: number): { x: number; y: number } {
  const o = (p ?? {}) as { x?: unknown; y?: unknown };
  if (Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])) return { x: Number(p[0]), y: Number(p[1]) };
  if (Number.isFinite(o.x) && Number.isFinite(o.y)) return { x: Number(o.x), y: Number(o.y) };
  return { x: index * 280, y: 0 };
}

export const label = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, MAX_LABEL);

export class GraphBuilder {
  private readonly nodes: ImportedNode[] = [];
  private readonly edges: Omit<ImportedEdge, 'id'>[] = [];
  private readonly taken = new Set<string>(RESERVED_NODE_IDS);
  private lost: LostEnd[] = [];

  /** A node id no other node has, from `preferred` (a title) or else `fallback` (a type). */
  newId(preferred: string, fallback: string): string {
    const base = slug(preferred) || slug(fallback) || 'node';
    let id = base;
    for (let n = 2; this.taken.has(id) || !NODE_ID_RE.test(id); n++) id = `${base.slice(0, MAX_ID)}_${n}`;
    this.taken.add(id);
    return id;
  }

  /** Claims an exact id (`start`, `end`) when it is free, else a numbered one. */
  claim(id: string): string {
    return this.newId(id, id);
  }

  addNode(node: ImportedNode): ImportedNode {
    this.nodes.push(node);
    return node;
  }

  node(id: string): ImportedNode | undefined {
    return this.nodes.find((n) => n.id === id);
  }

  allNodes(): readonly ImportedNode[] {
    return this.nodes;
  }

  addEdge(source: string, target: string, sourceHandle?: string): void {
    if (this.edges.some((e) => e.source === source && e.target === target && e.sourceHandle === sourceHandle)) return;
    this.edges.push({ source, target, ...(sourceHandle ? { sourceHandle } : {}) });
  }

  outgoing(id: string): Omit<ImportedEdge, 'id'>[] {
    return this.edges.filter((e) => e.source === id);
  }

  incoming(id: string): Omit<ImportedEdge, 'id'>[] {
    return this.edges.filter((e) => e.target === id);
  }

  /**
   * Takes `id` out of the edges: each node that led to it now leads (on the same branch) to each it led to. A path
   * that went on only through `id` now ends at the node before it: recorded, for lostEnds().
   */
  bridge(id: string): void {
    const into = this.incoming(id).filter((a) => a.source !== id);
    const out = this.outgoing(id).filter((b) => b.target !== id);
    for (let i = this.edges.length - 1; i >= 0; i--)
      if (this.edges[i].source === id || this.edges[i].target === id) this.edges.splice(i, 1);
    for (const a of into)
      for (const b of out) if (a.source !== b.target) this.addEdge(a.source, b.target, a.sourceHandle);
    const through = [
      ...(out.length ? [] : [[id]]),
      ...this.lost.filter((l) => l.source === id).map((l) => [id, ...l.via]),
    ];
    this.lost = this.lost.filter((l) => l.source !== id);
    for (const via of through)
      for (const a of into)
        this.lost.push({ source: a.source, ...(a.sourceHandle ? { sourceHandle: a.sourceHandle } : {}), via });
  }

  /** Paths that ended at a node taken out (bridge): each node and branch where such a path now ends. */
  lostEnds(): ReadonlyArray<LostEnd> {
    const seen = new Set<string>();
    return this.lost.filter((l) => {
      const key = `${l.source}\u0000${l.sourceHandle ?? ''}`;
      if (seen.has(key) || this.outgoing(l.source).some((e) => e.sourceHandle === l.sourceHandle)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Drops edges that `keep` refuses (e.g. a branch that has no PaiFlow equivalent). */
  removeEdges(refuse: (e: Omit<ImportedEdge, 'id'>) => boolean): void {
    for (let i = this.edges.length - 1; i >= 0; i--) if (refuse(this.edges[i])) this.edges.splice(i, 1);
  }

  build(): ImportedGraph {
    const known = new Set(this.nodes.map((n) => n.id));
    return {
      nodes: this.nodes,
      edges: this.edges
        .filter((e) => known.has(e.source) && known.has(e.target))
        .map((e, i) => ({ id: `e${i + 1}`, ...e })),
    };
  }
}
