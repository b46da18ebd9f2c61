'use client';
/**
 * The minimap: every node of the workflow as a small block in its type's colour, the view as a window in the mask,
 * pannable, zoomable and clickable to jump, as React Flow's MiniMap is (its pan and zoom are React Flow's own
 * XYMinimap). React Flow's MiniMap draws only the nodes it renders, and React Flow renders only the nodes that have a
 * card (overview-scene.ts); it also keeps a component and a store subscription per node. This one draws from the
 * editor's nodes and the cards' fixed sizes: a path per colour, redrawn when nodes move, while panning and zooming
 * move only the mask.
 */
import { Panel, useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import { XYMinimap, type XYMinimapInstance } from '@xyflow/system';
import { useTranslations } from 'next-intl';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, type MouseEvent } from 'react';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState } from '../editor-store';
import { cardsBounds, cardSize } from './card-geometry';
import { viewRect, type Rect } from './overview-scene';

const WIDTH = 128;
const HEIGHT = 84;
/** Space around the bounds, in minimap pixels (React Flow's offsetScale). */
const OFFSET = 5;
const MASK = 'rgba(244,244,245,0.7)';
const COLOR: Record<string, string> = {
  start: '#27272a',
  end: '#27272a',
  llm: '#7c3aed',
  template: '#0284c7',
  condition: '#e11d48',
  http: '#f59e0b',
};
const OTHER = '#a1a1aa';

const selectNodes = (s: EditorState) => s.nodes;
const selectView = (s: ReactFlowState) => viewRect(s.transform, s.width, s.height);
const sameView = (a: Rect, b: Rect) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
const selectFlow = (s: ReactFlowState) => s.panZoom;
const selectSize = (s: ReactFlowState) => `${s.width}x${s.height}`;

function MiniMapImpl({ onClick }: { onClick?: (e: MouseEvent, position: { x: number; y: number }) => void }) {
  const { editor } = useEditorContext();
  const t = useTranslations('canvas.minimap');
  const nodes = useEditorState(selectNodes);
  const view = useStore(selectView, sameView);
  const panZoom = useStore(selectFlow);
  const size = useStore(selectSize);
  const store = useStoreApi();
  const svg = useRef<SVGSVGElement>(null);
  const minimap = useRef<XYMinimapInstance | null>(null);

  const paths = useMemo(() => {
    const byColor = new Map<string, string[]>();
    for (const n of nodes) {
      const { width, height } = cardSize(n, editor.types.get(n.type ?? ''));
      const color = COLOR[n.type ?? ''] ?? OTHER;
      const list = byColor.get(color) ?? [];
      list.push(`M${n.position.x},${n.position.y}h${width}v${height}h${-width}z`);
      byColor.set(color, list);
    }
    return [...byColor].map(([color, d]) => ({ color, d: d.join('') }));
  }, [nodes, editor]);
  const bounds = useMemo(() => cardsBounds(nodes, editor.types) ?? view, [nodes, editor, view]);

  // The view and the nodes together, scaled to fit the minimap (React Flow's MiniMap's arithmetic).
  const x0 = Math.min(bounds.x, view.x);
  const y0 = Math.min(bounds.y, view.y);
  const boxWidth = Math.max(bounds.x + bounds.width, view.x + view.width) - x0;
  const boxHeight = Math.max(bounds.y + bounds.height, view.y + view.height) - y0;
  const viewScale = Math.max(boxWidth / WIDTH, boxHeight / HEIGHT);
  const offset = OFFSET * viewScale;
  const x = x0 - (viewScale * WIDTH - boxWidth) / 2 - offset;
  const y = y0 - (viewScale * HEIGHT - boxHeight) / 2 - offset;
  const width = viewScale * WIDTH + offset * 2;
  const height = viewScale * HEIGHT + offset * 2;
  const viewScaleRef = useRef(viewScale);
  useLayoutEffect(() => {
    viewScaleRef.current = viewScale;
  }, [viewScale]);

  useEffect(() => {
    if (!svg.current || !panZoom) return;
    minimap.current = XYMinimap({
      domNode: svg.current,
      panZoom,
      getTransform: () => store.getState().transform,
      getViewScale: () => viewScaleRef.current,
    });
    return () => {
      minimap.current?.destroy();
      minimap.current = null;
    };
  }, [panZoom, store]);
  useEffect(() => {
    const s = store.getState();
    minimap.current?.update({
      translateExtent: s.translateExtent,
      width: s.width,
      height: s.height,
      pannable: true,
      zoomable: true,
    });
  }, [panZoom, size, store]);

  const jump = onClick
    ? (e: MouseEvent) => {
        const [px, py] = minimap.current?.pointer(e) ?? [0, 0];
        onClick(e, { x: px, y: py });
      }
    : undefined;

  return (
    <Panel position="bottom-right" className="react-flow__minimap" style={{ width: WIDTH, height: HEIGHT }}>
      <svg
        ref={svg}
        width={WIDTH}
        height={HEIGHT}
        viewBox={`${x} ${y} ${width} ${height}`}
        className="react-flow__minimap-svg"
        role="img"
        aria-label={t('label')}
        onClick={jump}
        data-testid="minimap"
        data-nodes={nodes.length}
      >
        {paths.map((p) => (
          <path key={p.color} d={p.d} fill={p.color} className="react-flow__minimap-node" />
        ))}
        <path
          className="react-flow__minimap-mask"
          d={
            `M${x - offset},${y - offset}h${width + offset * 2}v${height + offset * 2}h${-width - offset * 2}z` +
            `M${view.x},${view.y}h${view.width}v${view.height}h${-view.width}z`
          }
          fill={MASK}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </Panel>
  );
}

export const MiniMap = memo(MiniMapImpl);
