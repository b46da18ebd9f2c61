import { KnowledgePlayground } from '@/components/knowledge/knowledge-playground';

export const metadata = { title: 'Knowledge · PaiFlow' };

export default function KnowledgePage() {
  return <KnowledgePlayground />;
}
