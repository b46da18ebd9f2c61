/** The example workflows a fresh database starts with, written once (app_meta `seeded` remembers it was done). */
import { DEFAULT_WORKSPACE_ID, type NewWorkflow } from '../types';
import type { PrismaClient } from './generated/client';

export async function seedOnce(prisma: PrismaClient, workflows: NewWorkflow[]): Promise<boolean> {
  if (await prisma.appMeta.findUnique({ where: { key: 'seeded' } })) return false;
  await prisma.$transaction(async (tx) => {
    for (const w of workflows)
      await tx.workflow.create({
        data: { ...w, graph: w.graph as object, workspaceId: w.workspaceId ?? DEFAULT_WORKSPACE_ID },
      });
    await tx.appMeta.create({ data: { key: 'seeded', value: { at: new Date().toISOString() } } });
  });
  return true;
}
