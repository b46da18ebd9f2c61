/** Knowledge-base helpers of the journeys: waiting for uploaded documents to be indexed. */
import type { Client } from './client';
import { until } from './runs';

/** The knowledge base's documents once `count` of them are all indexed; a failed one fails the journey at once. */
export async function documentsIndexed(api: Client, kbId: string, count: number): Promise<any[]> {
  const list = await until(
    'the documents to be indexed',
    async () => {
      const docs: any[] = await api.expectStatus(api.get(`/api/knowledge-bases/${kbId}/documents`), 200);
      const failed = docs.find((d) => d.status === 'failed');
      if (failed) throw new Error(`${failed.title} failed: ${JSON.stringify(failed.error)}`);
      return docs.length === count && docs.every((d) => d.status === 'indexed') ? docs : null;
    },
    120_000,
    250,
  );
  return list!;
}
