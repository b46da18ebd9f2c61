import { AuditSettings } from '@/components/settings/audit-settings';

export const metadata = { title: 'Audit log · PaiFlow' };

export default function AuditPage() {
  return <AuditSettings />;
}
