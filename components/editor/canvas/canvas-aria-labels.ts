'use client';
/**
 * React Flow's own words — the zoom controls' tooltips and labels, the node, edge and handle descriptions a screen
 * reader hears, the "moved the node" announcement — in the UI's language (React Flow 12's `ariaLabelConfig`; its
 * defaults are English only).
 */
import type { AriaLabelConfig } from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

export function useCanvasAriaLabels(): Partial<AriaLabelConfig> {
  const t = useTranslations('canvas.a11y');
  return useMemo(
    () => ({
      'controls.ariaLabel': t('controls'),
      'controls.zoomIn.ariaLabel': t('zoomIn'),
      'controls.zoomOut.ariaLabel': t('zoomOut'),
      'controls.fitView.ariaLabel': t('fitView'),
      'controls.interactive.ariaLabel': t('interactive'),
      'minimap.ariaLabel': t('minimap'),
      'handle.ariaLabel': t('handle'),
      'node.a11yDescription.default': t('node'),
      'node.a11yDescription.keyboardDisabled': t('nodeKeyboard'),
      'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }: { direction: string; x: number; y: number }) =>
        t('nodeMoved', {
          direction: (DIRECTIONS as readonly string[]).includes(direction)
            ? t(`directions.${direction as (typeof DIRECTIONS)[number]}`)
            : direction,
          x,
          y,
        }),
      'edge.a11yDescription.default': t('edge'),
    }),
    [t],
  );
}
