// Guarantees: the run panel previews every artifact reference in an output — nested in objects and lists, each once,
// at most eight — and nothing that merely looks similar (no content type, a URL that is not the API's).
import { expect, it } from 'vitest';
import { artifactsIn } from './artifact-refs';

const ref = (id: string, contentType = 'audio/wav') => ({ artifactId: id, url: `/api/artifacts/${id}`, contentType });

it('finds artifacts anywhere in an output, each once', () => {
  const first = ref('art_1');
  const output = { audio: first, images: [ref('art_2', 'image/png'), ref('art_3', 'image/png')], again: first };
  expect(artifactsIn(output).map((a) => a.artifactId)).toEqual(['art_1', 'art_2', 'art_3']);
});

it('ignores look-alikes and stops at eight', () => {
  expect(artifactsIn({ artifactId: 'x', url: '/api/artifacts/x' })).toEqual([]);
  expect(artifactsIn({ artifactId: 'x', url: 'https://evil.example/x', contentType: 'image/png' })).toEqual([]);
  expect(artifactsIn(Array.from({ length: 20 }, (_, i) => ref(`art_${i}`)))).toHaveLength(8);
});
