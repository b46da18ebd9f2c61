'use client';
/**
 * Previews of the files a node produced (artifacts: `{ artifactId, url, contentType, … }` anywhere in its output):
 * an audio player for speech, the picture for images, a link for anything else. The browser fetches them from
 * GET /api/artifacts/:id with the session, like any other API call.
 */
import { memo } from 'react';
import { artifactsIn, type ArtifactLike } from './artifact-refs';

function size(bytes?: number): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function caption(a: ArtifactLike): string {
  const parts = [a.name ?? a.artifactId, size(a.bytes)];
  if (a.durationMs !== undefined) parts.push(`${(a.durationMs / 1000).toFixed(1)} s`);
  return parts.filter(Boolean).join(' · ');
}

export const ArtifactPreview = memo(function ArtifactPreview({ value }: { value: unknown }) {
  const list = artifactsIn(value);
  if (!list.length) return null;
  return (
    <div className="mt-1.5 flex flex-col gap-2" data-testid="artifact-preview">
      {list.map((a) => (
        <figure key={a.artifactId} className="min-w-0">
          {a.contentType.startsWith('audio/') ? (
            <audio controls preload="metadata" src={a.url} className="h-8 w-full" data-testid="artifact-audio" />
          ) : a.contentType.startsWith('image/') ? (
            // eslint-disable-next-line @next/next/no-img-element -- an API URL behind the session, not a static asset
            <img
              src={a.url}
              alt={a.name ?? a.artifactId}
              className="max-h-48 max-w-full rounded border border-zinc-200"
              data-testid="artifact-image"
            />
          ) : null}
          <figcaption className="mt-0.5 truncate text-[10px] text-zinc-500">
            <a href={a.url} target="_blank" rel="noreferrer" className="underline hover:text-zinc-700">
              {caption(a)}
            </a>
          </figcaption>
        </figure>
      ))}
    </div>
  );
});
