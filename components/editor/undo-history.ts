/**
 * Undo / redo of graph edits: snapshots of nodes and edges (immutable, so a snapshot is two references), at most
 * HISTORY_LIMIT steps back. Changes with the same key in quick succession (typing in one field, keyboard nudges)
 * share one step, so undo goes back a word or a move, not a keystroke.
 */
import type { GraphSnapshot } from './editor-state';

const HISTORY_LIMIT = 100;

export class UndoHistory {
  private undoStack: GraphSnapshot[] = [];
  private redoStack: GraphSnapshot[] = [];
  private last = { key: '', at: 0 };

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** Records `current` before a change, unless the last change had the same key less than `windowMs` ago. */
  push(current: GraphSnapshot, key = '', windowMs = 0) {
    const now = Date.now();
    if (key && key === this.last.key && now - this.last.at < windowMs) {
      this.last.at = now;
      return;
    }
    this.last = { key, at: now };
    this.undoStack.push(current);
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift();
    this.redoStack = [];
  }

  /** The snapshot to go back to (and `current` becomes redoable), or undefined when there is none. */
  undo(current: GraphSnapshot): GraphSnapshot | undefined {
    const prev = this.undoStack.pop();
    if (!prev) return undefined;
    this.redoStack.push(current);
    this.last = { key: '', at: 0 };
    return prev;
  }

  /** The snapshot to go forward to (and `current` becomes undoable), or undefined when there is none. */
  redo(current: GraphSnapshot): GraphSnapshot | undefined {
    const next = this.redoStack.pop();
    if (!next) return undefined;
    this.undoStack.push(current);
    this.last = { key: '', at: 0 };
    return next;
  }
}
