import { InviteForm } from '@/components/auth/invite-form';

export const metadata = { title: 'Invitation · PaiFlow' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InviteForm token={decodeURIComponent(token)} />;
}
