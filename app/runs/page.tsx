import { Suspense } from 'react';
import { RunsView } from '@/components/runs/runs-view';

export const metadata = { title: 'Runs · PaiFlow' };

export default function RunsPage() {
  // The view reads its filters from the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <RunsView />
    </Suspense>
  );
}
