/** CredentialRepository on Prisma (table credentials). Every query names the workspace. */
import type { CredentialRecord, CredentialRepository } from '../credentials';
import { isUniqueViolation } from './errors';
import type { PrismaClient } from './generated/client';

type Row = Omit<CredentialRecord, 'hosts'> & { hosts: unknown };

const record = (r: Row): CredentialRecord => ({
  id: r.id,
  workspaceId: r.workspaceId,
  name: r.name,
  type: r.type,
  ciphertext: r.ciphertext,
  masked: r.masked,
  hosts: (r.hosts as string[]) ?? [],
  createdAt: r.createdAt,
});

export class PrismaCredentialRepository implements CredentialRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(c: Omit<CredentialRecord, 'createdAt'> & { createdBy: string | null }) {
    try {
      return record(await this.prisma.credential.create({ data: c }));
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async list(workspaceId: string) {
    return (await this.prisma.credential.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } })).map(
      record,
    );
  }

  async get(workspaceId: string, id: string) {
    const r = await this.prisma.credential.findFirst({ where: { id, workspaceId } });
    return r ? record(r) : null;
  }

  async delete(workspaceId: string, id: string) {
    return (await this.prisma.credential.deleteMany({ where: { id, workspaceId } })).count > 0;
  }
}
