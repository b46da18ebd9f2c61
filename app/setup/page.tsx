import { SetupForm } from '@/components/auth/setup-form';

export const metadata = { title: 'Set up · PaiFlow' };

export default function SetupPage() {
  return <SetupForm />;
}
