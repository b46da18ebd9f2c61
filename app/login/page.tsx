import { LoginForm } from '@/components/auth/login-form';

export const metadata = { title: 'Sign in · PaiFlow' };

export default function LoginPage() {
  return <LoginForm />;
}
