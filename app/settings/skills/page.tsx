import { SkillsSettings } from '@/components/settings/skills-settings';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata() {
  const t = await getTranslations('common.pageTitle');
  return { title: t('skills') };
}

export default function SkillsPage() {
  return <SkillsSettings />;
}
