/** What a node's output that is a stored file (an ArtifactRef, engine/artifacts/types.ts) offers to templates. */
import type { OutputField } from '../../node-kit/define';

export const ARTIFACT_OUTPUT_FIELDS: OutputField[] = [
  { path: 'artifactId', description: 'The stored file (an artifact id)' },
  { path: 'url', description: 'Where the file is served: /api/artifacts/<id>' },
  { path: 'contentType', description: 'Its media type' },
  { path: 'bytes', description: 'Its size in bytes' },
  { path: 'name', description: 'Its file name' },
];
