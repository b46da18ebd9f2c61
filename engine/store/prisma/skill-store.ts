/**
 * SkillUploadStore on Prisma (tables skills and skill_files, migration 0009_skills). Every query names the
 * workspace, so another workspace's skill is simply not found. A re-upload replaces the skill and all its files in
 * one nested write (one transaction).
 */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../../agent/skills/skill-md';
import type { SkillUpload, SkillUploadStore, StoredSkill, StoredSkillSummary } from '../../agent/skills/types';
import type { PrismaClient } from './generated/client';

const FILES = { select: { path: true, bytes: true }, orderBy: { path: 'asc' as const } };

export class PrismaSkillStore implements SkillUploadStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(workspaceId: string): Promise<StoredSkillSummary[]> {
    const rows = await this.prisma.skill.findMany({
      where: { workspaceId },
      select: { name: true, description: true, updatedAt: true, files: FILES },
      orderBy: { name: 'asc' },
    });
    return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
  }

  async get(workspaceId: string, name: string): Promise<StoredSkill | null> {
    const r = await this.prisma.skill.findUnique({
      where: { workspaceId_name: { workspaceId, name } },
      select: { name: true, description: true, skillMd: true, updatedAt: true, files: FILES },
    });
    return r ? { ...r, body: bodyOf(r.skillMd), updatedAt: r.updatedAt.toISOString() } : null;
  }

  async file(workspaceId: string, name: string, path: string): Promise<string | null> {
    const f = await this.prisma.skillFile.findFirst({
      where: { path, skill: { workspaceId, name } },
      select: { content: true },
    });
    return f?.content ?? null;
  }

  async put(workspaceId: string, u: SkillUpload, actorId?: string): Promise<{ created: boolean }> {
    const files = Object.entries(u.files).map(([path, content]) => ({
      path,
      content,
      bytes: Buffer.byteLength(content, 'utf8'),
    }));
    const where = { workspaceId_name: { workspaceId, name: u.name } };
    const existed = await this.prisma.skill.findUnique({ where, select: { id: true } });
    await this.prisma.skill.upsert({
      where,
      create: {
        id: `skl_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        workspaceId,
        name: u.name,
        description: u.description,
        skillMd: u.skillMd,
        createdBy: actorId ?? null,
        files: { create: files },
      },
      update: { description: u.description, skillMd: u.skillMd, files: { deleteMany: {}, create: files } },
    });
    return { created: !existed };
  }

  count(workspaceId: string): Promise<number> {
    return this.prisma.skill.count({ where: { workspaceId } });
  }

  async delete(workspaceId: string, name: string): Promise<boolean> {
    const r = await this.prisma.skill.deleteMany({ where: { workspaceId, name } });
    return r.count > 0;
  }
}
