/**
 * The artifact service from the settings: S3-compatible storage when ARTIFACTS_S3_ENDPOINT is set (with its bucket
 * and keys: a partial setting stops start-up with INVALID_CONFIG naming what is missing), else a folder under
 * DATA_DIR.
 */
import path from 'node:path';
import type { Settings } from '../config/settings';
import { PaiError } from '../errors';
import { Artifacts } from './artifacts';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';
import type { ArtifactStore, BlobStore } from './types';

type ArtifactSettings = Pick<
  Settings,
  | 'ARTIFACTS_S3_ENDPOINT'
  | 'ARTIFACTS_S3_BUCKET'
  | 'ARTIFACTS_S3_ACCESS_KEY_ID'
  | 'ARTIFACTS_S3_SECRET_ACCESS_KEY'
  | 'ARTIFACTS_S3_REGION'
  | 'ARTIFACTS_RETENTION_DAYS'
  | 'ARTIFACTS_MAX_BYTES'
>;

/** The blob store the settings ask for. */
export function blobStoreOf(s: ArtifactSettings, dataDir: string): BlobStore {
  const s3 = {
    ARTIFACTS_S3_BUCKET: s.ARTIFACTS_S3_BUCKET,
    ARTIFACTS_S3_ACCESS_KEY_ID: s.ARTIFACTS_S3_ACCESS_KEY_ID,
    ARTIFACTS_S3_SECRET_ACCESS_KEY: s.ARTIFACTS_S3_SECRET_ACCESS_KEY,
  };
  const given = Object.entries(s3).filter(([, v]) => !!v);
  if (!s.ARTIFACTS_S3_ENDPOINT) {
    if (given.length)
      throw new PaiError(
        'INVALID_CONFIG',
        `invalid configuration: ${given.map(([k]) => k).join(', ')} set without ARTIFACTS_S3_ENDPOINT; ` +
          'expected all of the ARTIFACTS_S3_* settings or none',
      );
    return new LocalBlobStore(path.join(dataDir, 'artifacts'));
  }
  const missing = Object.entries(s3)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length)
    throw new PaiError(
      'INVALID_CONFIG',
      `invalid configuration: ARTIFACTS_S3_ENDPOINT is set but not ${missing.join(', ')}; ` +
        'expected all of the ARTIFACTS_S3_* settings or none',
    );
  return new S3BlobStore({
    endpoint: s.ARTIFACTS_S3_ENDPOINT,
    bucket: s.ARTIFACTS_S3_BUCKET!,
    accessKeyId: s.ARTIFACTS_S3_ACCESS_KEY_ID!,
    secretAccessKey: s.ARTIFACTS_S3_SECRET_ACCESS_KEY!,
    region: s.ARTIFACTS_S3_REGION,
  });
}

/** `rows`: the artifact rows (Stores.artifacts). */
export function createArtifacts(s: ArtifactSettings, dataDir: string, rows: ArtifactStore): Artifacts {
  return new Artifacts(rows, blobStoreOf(s, dataDir), {
    maxBytes: s.ARTIFACTS_MAX_BYTES,
    retentionDays: s.ARTIFACTS_RETENTION_DAYS,
  });
}
