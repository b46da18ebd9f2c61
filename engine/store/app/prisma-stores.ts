/**
 * The stores (../stores.ts) on one opened database: the same Prisma client and driver serve PGlite and PostgreSQL.
 * `databaseBehind` hands the database itself to code inside engine/store and to tests' support code; nothing else
 * reaches it.
 */
import type { Stores } from './stores';
import { PrismaAccountRepository } from '../prisma/account-repository';
import { PrismaArtifactStore } from '../prisma/artifact-store';
import { PrismaRunAnalytics } from '../prisma/analytics';
import { PrismaAuditLog, PrismaSignInAttempts } from '../prisma/audit-log';
import { PrismaChatStore } from '../prisma/chat-store';
import { PrismaCheckpointStore } from '../prisma/checkpoint-store';
import { PrismaCredentialRepository } from '../prisma/credential-repository';
import { PrismaCallbackSecretStore, PrismaWorkflowNames } from '../prisma/callback-secrets';
import type { Database } from '../prisma/database';
import { PrismaDatasetStore } from '../prisma/dataset-store';
import { PrismaEvaluationStore } from '../prisma/evaluation-store';
import { PrismaKnowledgeCatalog } from '../prisma/knowledge-catalog';
import { PrismaMemoryStore } from '../prisma/memory-store';
import { PrismaStore, type PrismaStoreOptions } from '../prisma/prisma-store';
import { seedOnce } from '../prisma/seed';
import { PrismaSkillStore } from '../prisma/skill-store';
import { PrismaTriggerRepository } from '../prisma/trigger-repository';

const databases = new WeakMap<Stores, Database>();

/** `opts`: how the run store commits (SNAPSHOT_SYNC_COMMIT), as the opener was given it. */
export function storesOn(db: Database, opts: PrismaStoreOptions = {}): Stores {
  const stores: Stores = {
    kind: db.kind,
    describe: db.describe,
    runs: new PrismaStore(db.prisma, db.kind, db.sql, opts),
    triggers: new PrismaTriggerRepository(db.prisma, db.sql),
    callbackSecrets: new PrismaCallbackSecretStore(db.prisma),
    workflowNames: new PrismaWorkflowNames(db.prisma),
    accounts: new PrismaAccountRepository(db.prisma),
    signInAttempts: new PrismaSignInAttempts(db.prisma),
    audit: new PrismaAuditLog(db.prisma),
    credentials: new PrismaCredentialRepository(db.prisma),
    analytics: new PrismaRunAnalytics(db.prisma, db.sql),
    skills: new PrismaSkillStore(db.prisma),
    memory: new PrismaMemoryStore(db.prisma),
    knowledgeCatalog: new PrismaKnowledgeCatalog(db.prisma),
    artifacts: new PrismaArtifactStore(db.prisma),
    datasets: new PrismaDatasetStore(db.prisma),
    evaluations: new PrismaEvaluationStore(db.prisma),
    chat: new PrismaChatStore(db.prisma),
    checkpoints: new PrismaCheckpointStore(db.sql),
    seedOnce: (workflows) => seedOnce(db.prisma, workflows),
    ping: async () => {
      await db.prisma.$queryRawUnsafe('SELECT 1');
    },
    close: () => db.close(),
  };
  databases.set(stores, db);
  return stores;
}

/** The database `stores` were opened on (engine/store and test support only). */
export function databaseBehind(stores: Stores): Database {
  const db = databases.get(stores);
  if (!db) throw new Error('these stores were not opened by storesOn');
  return db;
}
