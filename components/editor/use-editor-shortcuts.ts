'use client';
/**
 * Ctrl/Cmd + S, Z, Shift+Z (or Y), C, V. Delete/Backspace are React Flow's own. Text fields keep their own undo and
 * clipboard. A read-only (viewer's) editor keeps only copy and select-all; Ctrl+S explains that nothing is saved.
 */
import { useEffect } from 'react';
import { tr } from '@/components/lib/i18n';
import { toast } from '@/components/ui/toast';
import type { EditorStore } from './editor-store';

/** True when the key goes to a text control, which keeps its own editing keys. */
export function inTextField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return (
    el.isContentEditable ||
    el.tagName === 'TEXTAREA' ||
    el.tagName === 'SELECT' ||
    (el.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes((el as HTMLInputElement).type))
  );
}

export function useEditorShortcuts(editor: EditorStore) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 's') {
        e.preventDefault();
        void editor.save({ manual: true }).then((ok) => {
          if (ok) toast('success', tr('editor.notice.saved'));
        });
        return;
      }
      if (inTextField(e.target) || document.querySelector('[role="dialog"]')) return;
      if (editor.readOnly && (key === 'z' || key === 'y' || key === 'v')) {
        e.preventDefault();
        return;
      }
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        editor.undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        editor.redo();
      } else if (key === 'c') {
        const n = editor.copy();
        if (n) toast('info', tr('editor.notice.copied', { count: n }));
      } else if (key === 'v') {
        e.preventDefault();
        editor.paste();
      } else if (key === 'a') {
        e.preventDefault();
        editor.store.set({
          ...editor.state,
          nodes: editor.state.nodes.map((n) => (n.selected ? n : { ...n, selected: true })),
          selectedIds: editor.state.nodes.map((n) => n.id),
        });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);
}
