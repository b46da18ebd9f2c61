import { MembersSettings } from '@/components/settings/members-settings';

export const metadata = { title: 'Members · PaiFlow' };

export default function MembersPage() {
  return <MembersSettings />;
}
