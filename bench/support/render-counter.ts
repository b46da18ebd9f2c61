/**
 * Counts node-card renders in the production build, where React has no Profiler: an init script stands in for the
 * React DevTools hook (React calls it on every commit, in production too) and walks each committed tree the way
 * DevTools does — into a fiber's children only when they were re-created in this commit — counting the node
 * components (the fibers that receive React Flow's node props) that really rendered (the PerformedWork flag).
 */
export interface RenderCounts {
  commits: number;
  /** node id → renders since the last reset */
  byNode: Record<string, number>;
}

/** Runs in the page before any script (page.addInitScript). */
export function installRenderCounter() {
  interface Fiber {
    tag: number;
    flags: number;
    type: unknown;
    memoizedProps: Record<string, unknown> | null;
    child: Fiber | null;
    sibling: Fiber | null;
    alternate: Fiber | null;
  }
  const PERFORMED_WORK = 1;
  const counts: RenderCounts = { commits: 0, byNode: {} };
  const w = window as unknown as { __renderCounts: RenderCounts; __REACT_DEVTOOLS_GLOBAL_HOOK__?: unknown };
  w.__renderCounts = counts;
  const isNodeCard = (f: Fiber) =>
    typeof f.type === 'function' &&
    f.memoizedProps !== null &&
    'positionAbsoluteX' in f.memoizedProps &&
    typeof f.memoizedProps.id === 'string';
  const visit = (parent: Fiber) => {
    const stack: Fiber[] = [parent];
    while (stack.length) {
      const p = stack.pop()!;
      // Children not re-created in this commit were skipped whole: nothing under them rendered.
      if (p.alternate && p.child === p.alternate.child) continue;
      for (let c = p.child; c; c = c.sibling) {
        if ((c.flags & PERFORMED_WORK) !== 0 && isNodeCard(c)) {
          const id = c.memoizedProps!.id as string;
          counts.byNode[id] = (counts.byNode[id] ?? 0) + 1;
        }
        stack.push(c);
      }
    }
  };
  let nextId = 1;
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject: () => nextId++,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      counts.commits++;
      visit(root.current);
    },
  };
}
