'use client';
/**
 * A read-only picture of a template's graph: one box per node at its stored position, one curve per edge (a branch
 * edge names its branch by the condition's label, "else" in the UI's language; an edge going back, as in a loop,
 * bends below the row). An SVG rather than a React Flow canvas, so a gallery of cards costs no canvas, no measuring
 * and no event handlers.
 */
import { useTranslations } from 'next-intl';
import { memo, useId } from 'react';
import type { Graph } from '@/components/api/types';

const W = 160;
const H = 44;
const PAD = 24;
/** How far below the lowest node an edge that goes back is drawn. */
const BACK_DROP = 56;
/** The narrowest drawing (in graph units), about five nodes wide. */
const MIN_WIDTH = 1200;

const COLOURS: Record<string, { fill: string; stroke: string }> = {
  start: { fill: '#ecfdf5', stroke: '#10b981' },
  end: { fill: '#f4f4f5', stroke: '#71717a' },
  llm: { fill: '#eef2ff', stroke: '#6366f1' },
  agent: { fill: '#eef2ff', stroke: '#6366f1' },
  multi_agent: { fill: '#eef2ff', stroke: '#6366f1' },
  knowledge: { fill: '#fffbeb', stroke: '#f59e0b' },
  http: { fill: '#f0f9ff', stroke: '#0ea5e9' },
  condition: { fill: '#f5f3ff', stroke: '#8b5cf6' },
  loop: { fill: '#f5f3ff', stroke: '#8b5cf6' },
  human_input: { fill: '#fff1f2', stroke: '#f43f5e' },
};
const DEFAULT_COLOUR = { fill: '#ffffff', stroke: '#a1a1aa' };

/** `s` cut to about `units` half-width characters (a CJK character is two), with an ellipsis when cut. */
function clip(s: string, units: number): string {
  let used = 0;
  let out = '';
  for (const ch of s) {
    const w = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1;
    if (used + w > units) return `${out.trimEnd()}…`;
    used += w;
    out += ch;
  }
  return out;
}

/** What a branch edge is called: its branch's label in the source node's config, else its handle id. */
function branchLabel(graph: Graph, source: string, handle: string): string {
  const node = graph.nodes.find((n) => n.id === source);
  const branches = (node?.data as { config?: { branches?: unknown } } | undefined)?.config?.branches;
  if (!Array.isArray(branches)) return handle;
  const b = branches.find((x: { id?: unknown } | null) => x?.id === handle) as { label?: unknown } | undefined;
  return typeof b?.label === 'string' && b.label ? b.label : handle;
}

function GraphPreviewImpl({ graph, title, className }: { graph: Graph; title: string; className?: string }) {
  const t = useTranslations('templates');
  const arrow = `pf-arrow-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const nodes = graph.nodes;
  if (!nodes.length) return null;
  const xs = nodes.map((n) => n.position.x);
  const ys = nodes.map((n) => n.position.y);
  const minX = Math.min(...xs) - PAD;
  const minY = Math.min(...ys) - PAD;
  const maxY = Math.max(...ys) + H;
  const hasBack = graph.edges.some((e) => {
    const s = nodes.find((n) => n.id === e.source);
    const target = nodes.find((n) => n.id === e.target);
    return !!s && !!target && target.position.x <= s.position.x;
  });
  // A short graph is drawn at the scale of a longer one, centred, instead of blown up to the full width.
  const drawn = Math.max(...xs) + W + PAD - minX;
  const width = Math.max(drawn, MIN_WIDTH);
  const left = minX - (width - drawn) / 2;
  const height = maxY + (hasBack ? BACK_DROP + 8 : 0) + PAD - minY;
  const byId = new Map(nodes.map((n) => [n.id, n]));

  return (
    <svg
      viewBox={`${left} ${minY} ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      role="img"
      aria-label={title}
      className={className}
      data-testid="template-preview"
    >
      <defs>
        <marker id={arrow} viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0,0 L8,4 L0,8 z" fill="#a1a1aa" />
        </marker>
      </defs>
      {graph.edges.map((e) => {
        const s = byId.get(e.source);
        const target = byId.get(e.target);
        if (!s || !target) return null;
        const x1 = s.position.x + W;
        const y1 = s.position.y + H / 2;
        const x2 = target.position.x;
        const y2 = target.position.y + H / 2;
        const back = x2 <= s.position.x;
        const low = maxY + BACK_DROP;
        const d = back
          ? `M${x1},${y1} C${x1 + 70},${low} ${x2 - 70},${low} ${x2},${y2}`
          : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
        const handle = e.sourceHandle && e.sourceHandle !== 'out' ? e.sourceHandle : null;
        const branch = !handle ? null : handle === 'else' ? t('elseBranch') : branchLabel(graph, e.source, handle);
        return (
          <g key={e.id}>
            <path
              d={d}
              fill="none"
              stroke="#a1a1aa"
              strokeWidth={2}
              strokeDasharray={back ? '6 4' : undefined}
              markerEnd={`url(#${arrow})`}
            />
            {branch && (
              <text
                data-testid="template-preview-branch"
                x={(x1 + x2) / 2}
                y={back ? low - 4 : (y1 + y2) / 2 - 6}
                textAnchor="middle"
                fontSize={15}
                fill="#71717a"
              >
                {clip(branch, 16)}
              </text>
            )}
          </g>
        );
      })}
      {nodes.map((n) => {
        const c = COLOURS[n.type] ?? DEFAULT_COLOUR;
        const label = String((n.data as { label?: unknown }).label ?? n.type);
        return (
          <g key={n.id} transform={`translate(${n.position.x},${n.position.y})`}>
            <rect width={W} height={H} rx={8} fill={c.fill} stroke={c.stroke} strokeWidth={2} />
            <text x={W / 2} y={H / 2 + 6} textAnchor="middle" fontSize={17} fill="#27272a">
              {clip(label, 18)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export const GraphPreview = memo(GraphPreviewImpl);
