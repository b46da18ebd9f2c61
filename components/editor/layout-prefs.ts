'use client';
/**
 * How the editor's panels are laid out — palette, inspector and run panel shown or collapsed, the run panel's height,
 * the minimap — kept in local storage so the editor opens the way the user left it, in every workflow. Focus mode
 * only hides the panels for the moment (it is not remembered), so leaving it restores exactly what was open.
 */
import { useSyncExternalStore } from 'react';

export interface LayoutPrefs {
  paletteOpen: boolean;
  inspectorOpen: boolean;
  bottomOpen: boolean;
  /** Height of the open run panel in CSS pixels. */
  bottomHeight: number;
  minimap: boolean;
  /** Palette, inspector and run panel hidden together; not persisted. */
  focus: boolean;
}

export const LAYOUT_KEY = 'paiflow.editor.layout';

/**
 * How the canvas fits a graph to the view (on open, the controls' and the toolbar's "fit", after auto-layout): the
 * bottom strip where the minimap and the controls sit (84 px tall, 15 px from the edge) is left free of nodes, so
 * neither covers a node of a fitted graph.
 */
export const FIT_VIEW_PADDING = { top: '8%', left: '8%', right: '8%', bottom: '124px' } as const;
/** A fit counts every node: React Flow is told those without a card are hidden (canvas/overview-scene.ts). */
export const FIT_VIEW_OPTIONS = { padding: FIT_VIEW_PADDING, includeHiddenNodes: true } as const;
export const BOTTOM_MIN = 120;
export const BOTTOM_DEFAULT = 288;

const DEFAULTS: LayoutPrefs = {
  paletteOpen: true,
  inspectorOpen: true,
  bottomOpen: true,
  bottomHeight: BOTTOM_DEFAULT,
  minimap: true,
  focus: false,
};

/** The tallest the run panel may get: it never takes more than 70% of the window, so the canvas stays usable. */
export function bottomMax(): number {
  return typeof window === 'undefined' ? 600 : Math.max(BOTTOM_MIN, Math.round(window.innerHeight * 0.7));
}

export function clampBottom(h: number): number {
  return Math.min(bottomMax(), Math.max(BOTTOM_MIN, Math.round(h)));
}

function load(): LayoutPrefs {
  try {
    const raw = JSON.parse(window.localStorage.getItem(LAYOUT_KEY) ?? '{}') as Partial<
      Record<keyof LayoutPrefs, unknown>
    >;
    const bool = (k: 'paletteOpen' | 'inspectorOpen' | 'bottomOpen' | 'minimap') =>
      typeof raw[k] === 'boolean' ? (raw[k] as boolean) : DEFAULTS[k];
    const h = typeof raw.bottomHeight === 'number' && Number.isFinite(raw.bottomHeight) ? raw.bottomHeight : undefined;
    return {
      paletteOpen: bool('paletteOpen'),
      inspectorOpen: bool('inspectorOpen'),
      bottomOpen: bool('bottomOpen'),
      minimap: bool('minimap'),
      bottomHeight: h === undefined ? DEFAULTS.bottomHeight : clampBottom(h),
      focus: false,
    };
  } catch {
    // Unreadable or blocked storage: the defaults, and nothing breaks.
    return DEFAULTS;
  }
}

let current: LayoutPrefs | null = null;
const listeners = new Set<() => void>();

function snapshot(): LayoutPrefs {
  current ??= load();
  return current;
}

/** Changes the layout, remembers everything but focus mode, and re-renders every panel that reads it. */
export function setLayout(patch: Partial<LayoutPrefs> | ((p: LayoutPrefs) => Partial<LayoutPrefs>)): void {
  const prev = snapshot();
  const next = { ...prev, ...(typeof patch === 'function' ? patch(prev) : patch) };
  current = next;
  try {
    const persisted: Partial<LayoutPrefs> = { ...next };
    delete persisted.focus;
    window.localStorage.setItem(LAYOUT_KEY, JSON.stringify(persisted));
  } catch {
    // Storage full or blocked: the layout still changes for this page.
  }
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

const serverSnapshot = () => DEFAULTS;

export function useLayoutPrefs(): LayoutPrefs {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
