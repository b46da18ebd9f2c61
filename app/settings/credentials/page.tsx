import { CredentialsSettings } from '@/components/settings/credentials-settings';

export const metadata = { title: 'Credentials · PaiFlow' };

export default function CredentialsPage() {
  return <CredentialsSettings />;
}
