import { Editor } from '@/components/editor/editor';

export default async function WorkflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <Editor workflowId={id} />;
}
