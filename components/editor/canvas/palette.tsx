'use client';
/** Every registered node type, grouped by category and searchable; items are dragged onto the canvas (HTML5 drag). */
import { useReactFlow } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { memo, useMemo, useState } from 'react';
import type { NodeTypeInfo } from '@/components/api/types';
import { useEditorContext } from '../editor-context';
import { categoryKey, categoryStyle, CATEGORY_STYLE } from './categories';

export const PALETTE_MIME = 'application/x-paiflow-node-type';

const CATEGORY_ORDER = Object.keys(CATEGORY_STYLE);

function PaletteImpl() {
  const { nodeTypes, editor } = useEditorContext();
  const rf = useReactFlow();
  const t = useTranslations('canvas');
  const [query, setQuery] = useState('');

  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const match = (t: NodeTypeInfo) =>
      !q || [t.type, t.label, t.description, t.category].some((s) => s.toLowerCase().includes(q));
    const byCat = new Map<string, NodeTypeInfo[]>();
    for (const t of nodeTypes.filter(match)) byCat.set(t.category, [...(byCat.get(t.category) ?? []), t]);
    return [...byCat.entries()].sort(
      ([a], [b]) => ((CATEGORY_ORDER.indexOf(a) + 99) % 99) - ((CATEGORY_ORDER.indexOf(b) + 99) % 99),
    );
  }, [nodeTypes, query]);

  /** Keyboard / double-click alternative to dragging: add at the centre of the visible canvas. */
  const addAtCentre = (type: string) => {
    const el = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const p = el ? rf.screenToFlowPosition({ x: el.left + el.width / 2, y: el.top + el.height / 2 }) : { x: 0, y: 0 };
    const jitter = (editor.state.nodes.length % 5) * 24;
    editor.addNode(type, { x: p.x - 120 + jitter, y: p.y - 40 + jitter });
  };

  return (
    <aside className="flex h-full w-60 shrink-0 flex-col border-r border-zinc-200 bg-white" data-testid="palette">
      <div className="border-b border-zinc-200 p-3">
        <div className="mb-2 text-[11px] font-semibold uppercase tracking-wider text-zinc-500">
          {t('palette.title')}
        </div>
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('palette.search')}
          data-testid="palette-search"
          className={
            'h-8 w-full rounded-md border border-zinc-300 bg-zinc-50 px-2.5 text-sm outline-none ' +
            'placeholder:text-zinc-400 focus:border-indigo-400 focus:bg-white focus:ring-2 focus:ring-indigo-100'
          }
        />
      </div>
      <div className="flex-1 space-y-4 overflow-y-auto p-3">
        {groups.length === 0 && <div className="text-xs text-zinc-500">{t('palette.noMatch', { query })}</div>}
        {groups.map(([cat, types]) => (
          <section key={cat} data-testid={`palette-group-${cat}`}>
            <h3 className="mb-1.5 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
              {t(`category.${categoryKey(cat)}`)}
            </h3>
            <ul className="space-y-1.5">
              {types.map((nt) => (
                <li key={nt.type}>
                  <div
                    draggable
                    role="button"
                    tabIndex={0}
                    data-testid={`palette-item-${nt.type}`}
                    title={t('palette.itemTitle', { description: nt.description })}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(PALETTE_MIME, nt.type);
                      e.dataTransfer.effectAllowed = 'move';
                    }}
                    onDoubleClick={() => addAtCentre(nt.type)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        addAtCentre(nt.type);
                      }
                    }}
                    className={
                      'flex cursor-grab items-start gap-2 rounded-md border border-zinc-200 bg-white p-2 ' +
                      'text-left shadow-xs transition hover:border-indigo-300 hover:shadow-sm focus:outline-none ' +
                      'focus-visible:ring-2 focus-visible:ring-indigo-400 active:cursor-grabbing'
                    }
                  >
                    <span
                      className={
                        'grid h-6 w-6 shrink-0 place-items-center rounded-md text-[10px] font-bold ' +
                        categoryStyle(nt.category).chip
                      }
                    >
                      {categoryStyle(nt.category).icon}
                    </span>
                    <span className="min-w-0">
                      <span className="block text-[13px] font-medium leading-tight text-zinc-800">{nt.label}</span>
                      <span className="line-clamp-2 text-[11px] leading-snug text-zinc-500">{nt.description}</span>
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}

export const Palette = memo(PaletteImpl);
