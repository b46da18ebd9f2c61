'use client';
/** The fields a dataset's rows expect (scorer-drafts.ts expectedFields), once loaded; null while unknown. */
import { useEffect, useState } from 'react';
import { datasetsApi } from '@/components/datasets/datasets-api';
import { expectedFields } from './scorer-drafts';

export function useExpectedFields(datasetId: string): string[] | null {
  const [known, setKnown] = useState<{ id: string; fields: string[] } | null>(null);
  useEffect(() => {
    if (!datasetId) return;
    let live = true;
    // A dataset that cannot be read leaves the defaults as they are; the form's own checks still apply.
    datasetsApi.get(datasetId).then(
      (d) => live && setKnown({ id: datasetId, fields: expectedFields(d.rows) }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [datasetId]);
  return known && known.id === datasetId ? known.fields : null;
}
