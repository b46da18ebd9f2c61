import { SkillsSettings } from '@/components/settings/skills-settings';

export const metadata = { title: 'Skills · PaiFlow' };

export default function SkillsPage() {
  return <SkillsSettings />;
}
