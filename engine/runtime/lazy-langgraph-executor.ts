/**
 * The state-graph executor, loaded with LangGraph the first time a run needs it: importing LangGraph is about a
 * quarter of a second of every process's start-up, and memory that a server whose workflows all run on the DAG
 * engine never uses. A failed load is not kept: the next run tries again.
 */
import type { Executor } from './run-manager';

export function lazyLangGraphExecutor(opts: { loopMaxIterations?: number } = {}): Executor {
  let loaded: Promise<Executor> | undefined;
  return async (args) => {
    loaded ??= import('./langgraph-executor')
      .then((m) => m.createLangGraphExecutor(opts))
      .catch((e: unknown) => {
        loaded = undefined;
        throw e;
      });
    return (await loaded)(args);
  };
}
