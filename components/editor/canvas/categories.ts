/**
 * Node categories: the chip a card, the palette and the inspector show, and its colour where the overview draws a
 * card on a canvas. Their names are messages (canvas.category.<key>, `other` for an unknown category).
 */
export const CATEGORY_STYLE: Record<string, { chip: string; icon: string; color: string }> = {
  flow: { chip: 'bg-zinc-800 text-white', icon: '▶', color: '#27272a' },
  ai: { chip: 'bg-violet-600 text-white', icon: '✦', color: '#7c3aed' },
  data: { chip: 'bg-sky-600 text-white', icon: '{ }', color: '#0284c7' },
  integration: { chip: 'bg-amber-500 text-white', icon: '⇄', color: '#f59e0b' },
  logic: { chip: 'bg-rose-600 text-white', icon: '◇', color: '#e11d48' },
};
const FALLBACK_CATEGORY = { chip: 'bg-zinc-500 text-white', icon: '•', color: '#71717a' };

export function categoryStyle(category: string) {
  return CATEGORY_STYLE[category] ?? FALLBACK_CATEGORY;
}

/** The message key of a category's name. */
export function categoryKey(category: string): string {
  return category in CATEGORY_STYLE ? category : 'other';
}
