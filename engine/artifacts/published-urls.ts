/**
 * Artifact URLs as a published run's caller can use them: a node output holds `url: "/api/artifacts/<id>"`, which
 * needs a session; the API-key holder fetches the same file at `/api/v1/runs/<runId>/artifacts/<id>` with the key.
 * Rewrites every `{ artifactId, url }` reference in a value (run outputs), copying only what it changes.
 */
import { artifactUrl } from './artifacts';

export const publishedArtifactUrl = (runId: string, id: string) => `/api/v1/runs/${runId}/artifacts/${id}`;

export function withPublishedArtifactUrls<T>(value: T, runId: string, depth = 0): T {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const w = withPublishedArtifactUrls(v, runId, depth + 1);
      if (w !== v) changed = true;
      return w;
    });
    return (changed ? out : value) as T;
  }
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(obj)) {
    const w = withPublishedArtifactUrls(v, runId, depth + 1);
    if (w !== v) (out ??= { ...obj })[k] = w;
  }
  const id = obj.artifactId;
  if (typeof id === 'string' && obj.url === artifactUrl(id)) (out ??= { ...obj }).url = publishedArtifactUrl(runId, id);
  return (out ?? value) as T;
}
