'use client';
/**
 * The overview's canvas, under React Flow's cards and edges (overview-model.ts draws on it) and the pointer on what
 * it draws (overview-pointer.ts). A child of <ReactFlow>, for React Flow's store and root element.
 */
import { useStoreApi } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { useEditorContext } from '../editor-context';
import type { Overview } from './overview-model';
import { attachOverviewPointer } from './overview-pointer';

const STYLE = { zIndex: 0 } as const;

export function OverviewLayer({ overview }: { overview: Overview }) {
  const { editor } = useEditorContext();
  const flow = useStoreApi();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const detach = overview.attach(flow, canvas.current!);
    const root = flow.getState().domNode;
    const detachPointer = root ? attachOverviewPointer(root, overview, flow, editor) : undefined;
    return () => {
      detachPointer?.();
      detach();
    };
  }, [overview, flow, editor]);
  return (
    <canvas
      ref={canvas}
      className="pointer-events-none absolute left-0 top-0 h-full w-full"
      style={STYLE}
      data-testid="overview"
      aria-hidden
    />
  );
}
