import { TokensSettings } from '@/components/settings/tokens-settings';

export const metadata = { title: 'API tokens · PaiFlow' };

export default function TokensPage() {
  return <TokensSettings />;
}
