/**
 * LangGraph checkpoints in our own database: the official PostgresSaver on PostgreSQL, and on PGlite through a
 * pg.Pool-compatible wrapper (database.ts), so the embedded store and PostgreSQL share the same saver code.
 */
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { Database } from './database';

const savers = new WeakMap<Database, Promise<BaseCheckpointSaver>>();

export function checkpointerFor(db: Database): Promise<BaseCheckpointSaver> {
  let p = savers.get(db);
  if (!p) {
    p = (async () => {
      const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
      const saver = new PostgresSaver(db.pool as never, undefined, { schema: db.schema });
      await saver.setup();
      return saver as unknown as BaseCheckpointSaver;
    })();
    p.catch(() => savers.delete(db));
    savers.set(db, p);
  }
  return p;
}
