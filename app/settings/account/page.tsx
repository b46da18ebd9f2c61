import { AccountSettings } from '@/components/settings/account-settings';

export const metadata = { title: 'Account · PaiFlow' };

export default function AccountPage() {
  return <AccountSettings />;
}
