/**
 * A workflow's callback signing secret (`workflows.callback_secret`) and the names of a workspace's workflows, on
 * Prisma. The secret is written with plain UPDATEs, so that making one does not bump the workflow's `updated_at`.
 */
import type { CallbackSecretStore, WorkflowNames } from '../publishing';
import type { PrismaClient } from './generated/client';

export class PrismaCallbackSecretStore implements CallbackSecretStore {
  constructor(private readonly prisma: PrismaClient) {}

  async get(workflowId: string) {
    const row = await this.prisma.workflow.findUnique({ where: { id: workflowId }, select: { callbackSecret: true } });
    return row ? row.callbackSecret : undefined;
  }

  async setIfUnset(workflowId: string, sealed: string) {
    const n = await this.prisma.$executeRaw`
      UPDATE workflows SET callback_secret = ${sealed} WHERE id = ${workflowId} AND callback_secret IS NULL`;
    return n === 1;
  }

  async replace(workflowId: string, sealed: string) {
    const n = await this.prisma.$executeRaw`UPDATE workflows SET callback_secret = ${sealed} WHERE id = ${workflowId}`;
    return n === 1;
  }
}

export class PrismaWorkflowNames implements WorkflowNames {
  constructor(private readonly prisma: PrismaClient) {}

  async startingWith(workspaceId: string, prefix: string) {
    const rows = await this.prisma.workflow.findMany({
      where: { workspaceId, name: { startsWith: prefix } },
      select: { name: true },
    });
    return rows.map((r) => r.name);
  }
}
