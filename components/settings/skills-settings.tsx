'use client';
/**
 * The workspace's agent skills: the list (SKILLS_DIR skills read-only, uploads deletable by editors), a skill's
 * instructions on demand, and for editors an upload form: SKILL.md in a text area (or from a chosen skill folder)
 * plus extra files, each under a path inside the skill. Files are read in the browser and sent as JSON.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useState } from 'react';
import { canEdit } from '@/components/api/auth-api';
import { call } from '@/components/api/client';
import { useAuth } from '@/components/auth/auth-gate';
import { Button } from '@/components/ui/button';
import { inputCls, SettingsForm, useSubmit } from './settings-form';
import { ErrorNote, Section, SettingsShell, TableSection, useApiData, useFormatDate } from './settings-shell';

interface SkillView {
  name: string;
  description: string;
  source: 'dir' | 'workspace';
  files: { path: string; bytes: number }[];
  shadows?: boolean;
  updatedAt: string | null;
}
interface SkillDetail extends SkillView {
  body: string;
}

const skillUrl = (name: string) => `/api/skills/${encodeURIComponent(name)}`;
const skillsApi = {
  list: () => call<SkillView[]>('GET', '/api/skills'),
  get: (name: string) => call<SkillDetail>('GET', skillUrl(name)),
  upload: (files: Record<string, string>) => call<SkillDetail>('POST', '/api/skills', { files }),
  remove: (name: string) => call<void>('DELETE', skillUrl(name)),
};

const TEMPLATE = `---
name: my-skill
description: What this skill does and when to use it.
---
# My skill

Step-by-step instructions for the agent. Mention extra files by path, e.g. reference/details.md.
`;

export function SkillsSettings() {
  const editor = canEdit(useAuth()?.role);
  const { data: list, error, reload, act } = useApiData(skillsApi.list);
  const [open, setOpen] = useState<SkillDetail | null>(null);
  const t = useTranslations('settings.skills');
  const tc = useTranslations('common');
  const formatDate = useFormatDate();
  const columns = (['name', 'description', 'source', 'files', 'updated'] as const).map((c) => t(`columns.${c}`));

  const remove = async (s: SkillView) => {
    // Deleting an upload that replaced a SKILLS_DIR skill brings that one back.
    if (!window.confirm(t(s.shadows ? 'confirmDeleteShadowing' : 'confirmDelete', { name: s.name }))) return;
    await act(() => skillsApi.remove(s.name));
    if (open?.name === s.name) setOpen(null);
  };
  const view = (s: SkillView) =>
    act(async () => setOpen(open?.name === s.name && open.source === s.source ? null : await skillsApi.get(s.name)));

  return (
    <SettingsShell title={t('title')}>
      <p className="text-sm text-zinc-600">{t.rich('intro', { code: (chunks) => <code>{chunks}</code> })}</p>
      <ErrorNote error={error} />
      {editor && <UploadSkill onUploaded={reload} />}
      <TableSection
        title={t('listTitle')}
        testId="skills"
        rows={list}
        loading={<p className="text-sm text-zinc-500">{error ? '' : tc('loading')}</p>}
        empty={t('empty')}
        columns={columns}
        actions
      >
        {(s) => (
          <tr key={s.name} className="border-t border-zinc-100 align-top" data-testid="skill-row" data-name={s.name}>
            <td className="py-2 pr-3 font-mono text-[12px] font-medium">{s.name}</td>
            <td className="py-2 pr-3 text-zinc-600">{s.description}</td>
            <td className="py-2 pr-3 text-zinc-600">
              {/* i18n-exempt: SKILLS_DIR is the server setting's name */}
              {s.source === 'dir' ? 'SKILLS_DIR' : t('uploaded')}
              {s.shadows && <span className="block text-[11px] text-amber-700">{t('replaces')}</span>}
            </td>
            <td className="py-2 pr-3 text-zinc-600" title={s.files.map((f) => f.path).join('\n')}>
              {s.files.length}
            </td>
            <td className="py-2 pr-3 text-zinc-500">{formatDate(s.updatedAt)}</td>
            <td className="space-x-1 whitespace-nowrap py-2 text-right">
              <Button size="sm" onClick={() => void view(s)} aria-label={t('showLabel', { name: s.name })}>
                {open?.name === s.name ? t('hide') : t('show')}
              </Button>
              {editor && s.source === 'workspace' && (
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => void remove(s)}
                  aria-label={t('deleteLabel', { name: s.name })}
                >
                  {t('delete')}
                </Button>
              )}
            </td>
          </tr>
        )}
      </TableSection>
      {open && <SkillBody skill={open} />}
    </SettingsShell>
  );
}

function SkillBody({ skill }: { skill: SkillDetail }) {
  const t = useTranslations('settings.skills');
  return (
    <Section title={t('instructions', { name: skill.name })} testId="skill-body">
      <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded-md bg-zinc-50 p-3 font-mono text-[12px]">
        {skill.body || t('noInstructions')}
      </pre>
      {skill.files.length > 0 && (
        <ul className="mt-2 list-inside list-disc text-[12px] text-zinc-600">
          {skill.files.map((f) => (
            <li key={f.path}>
              <span className="font-mono">{f.path}</span> {t('fileBytes', { bytes: f.bytes })}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

interface ExtraFile {
  key: number;
  path: string;
  text: string;
}

/** A folder picker's paths start with the folder's own name: drop it, so paths are inside the skill. */
const insideFolder = (relative: string) => relative.split('/').slice(1).join('/') || relative;

function UploadSkill({ onUploaded }: { onUploaded: () => void }) {
  const [skillMd, setSkillMd] = useState(TEMPLATE);
  const [extra, setExtra] = useState<ExtraFile[]>([]);
  const [seq, setSeq] = useState(0);
  const t = useTranslations('settings.skills.upload');

  const addFiles = useCallback(
    async (list: FileList | null, fromFolder: boolean) => {
      if (!list?.length) return;
      const read = await Promise.all(
        [...list].map(async (f) => ({
          path: fromFolder ? insideFolder(f.webkitRelativePath || f.name) : f.name,
          text: await f.text(),
        })),
      );
      const md = read.find((f) => f.path === 'SKILL.md');
      if (md) setSkillMd(md.text);
      const others = read.filter((f) => f.path !== 'SKILL.md' && !f.path.split('/').some((s) => s.startsWith('.')));
      setExtra((cur) => [
        ...cur.filter((c) => !others.some((o) => o.path === c.path)),
        ...others.map((o, i) => ({ key: seq + i, ...o })),
      ]);
      setSeq((n) => n + others.length);
    },
    [seq],
  );

  const { busy, error, submit } = useSubmit(async () => {
    const files: Record<string, string> = { 'SKILL.md': skillMd };
    for (const f of extra) files[f.path] = f.text;
    await skillsApi.upload(files);
    setSkillMd(TEMPLATE);
    setExtra([]);
    onUploaded();
  });

  return (
    <Section title={t('title')} testId="skill-upload">
      <SettingsForm className="space-y-3" onSubmit={submit}>
        <div className="flex flex-wrap gap-4 text-[12px] text-zinc-700">
          <label className="flex items-center gap-2">
            {t('folder')}
            <input
              type="file"
              data-testid="skill-folder"
              onChange={(e) => void addFiles(e.target.files, true)}
              {...{ webkitdirectory: '', directory: '' }}
            />
          </label>
          <label className="flex items-center gap-2">
            {t('extraFiles')}
            <input
              type="file"
              multiple
              data-testid="skill-files"
              onChange={(e) => void addFiles(e.target.files, false)}
            />
          </label>
        </div>
        <div>
          <label htmlFor="skill-md" className="mb-1 block text-[12px] font-medium text-zinc-700">
            {t.rich('skillMd', { code: (chunks) => <code>{chunks}</code> })}
          </label>
          <textarea
            id="skill-md"
            data-testid="skill-md"
            required
            rows={10}
            value={skillMd}
            onChange={(e) => setSkillMd(e.target.value)}
            className={`${inputCls} h-auto py-2 font-mono text-[12px]`}
          />
        </div>
        {extra.length > 0 && (
          <ul className="space-y-1" data-testid="skill-extra-files">
            {extra.map((f) => (
              <li key={f.key} className="flex items-center gap-2">
                <input
                  aria-label={t('pathLabel')}
                  value={f.path}
                  onChange={(e) =>
                    setExtra((cur) => cur.map((c) => (c.key === f.key ? { ...c, path: e.target.value } : c)))
                  }
                  className={`${inputCls} font-mono text-[12px]`}
                />
                <span className="shrink-0 text-[11px] text-zinc-500">{t('chars', { count: f.text.length })}</span>
                <Button
                  size="sm"
                  onClick={() => setExtra((cur) => cur.filter((c) => c.key !== f.key))}
                  aria-label={t('removeLabel', { path: f.path })}
                >
                  {t('remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <p className="text-[11px] text-zinc-500">{t('note')}</p>
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" disabled={busy} data-testid="skill-submit">
          {t('submit')}
        </Button>
      </SettingsForm>
    </Section>
  );
}
