/** Finds the artifact references (`{ artifactId, url, contentType, … }`) in a node's output or a run's outputs. */
export interface ArtifactLike {
  artifactId: string;
  url: string;
  contentType: string;
  bytes?: number;
  name?: string;
  durationMs?: number;
}

const MAX_SHOWN = 8;

function isArtifact(v: unknown): v is ArtifactLike {
  const o = v as Record<string, unknown> | null;
  return (
    !!o &&
    typeof o === 'object' &&
    typeof o.artifactId === 'string' &&
    typeof o.url === 'string' &&
    o.url.startsWith('/api/') &&
    typeof o.contentType === 'string'
  );
}

/** The artifacts in a value (depth-first, each once), at most MAX_SHOWN. */
export function artifactsIn(value: unknown): ArtifactLike[] {
  const out = new Map<string, ArtifactLike>();
  const walk = (v: unknown, depth: number) => {
    if (out.size >= MAX_SHOWN || depth > 6 || !v || typeof v !== 'object') return;
    if (isArtifact(v) && !out.has(v.artifactId)) out.set(v.artifactId, v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
  return [...out.values()];
}
