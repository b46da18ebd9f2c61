/**
 * A tiny observable store for state that changes often (graph edits, trace events) and is read by many
 * components. Components subscribe through `useStoreSelector` with a selector, so only the ones whose selected
 * value changed (by reference) re-render: a stream of trace events repaints just the affected node.
 */
import { useCallback, useSyncExternalStore } from 'react';

export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (prev: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Selectors must return a stable reference for unchanged data (a stored object, a primitive), never a fresh object. */
export function useStoreSelector<T, S>(store: Store<T>, selector: (state: T) => S): S {
  const get = useCallback(() => selector(store.get()), [store, selector]);
  return useSyncExternalStore(store.subscribe, get, get);
}
