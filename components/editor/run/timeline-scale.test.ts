/** The timeline scale: zooming keeps the instant under the pointer still, fit shows the whole run, ticks are round. */
import { describe, expect, it } from 'vitest';
import { fitView, formatOffset, panView, tickStep, ticks, zoomView } from './timeline-scale';

describe('timeline scale', () => {
  it('zooms around the pointer and pans by pixels', () => {
    const v = { start: 1000, pxPerMs: 1 };
    const z = zoomView(v, 2, 300); // the instant at 300 px (t = 1300) stays at 300 px
    expect(z.pxPerMs).toBe(2);
    expect(z.start + 300 / z.pxPerMs).toBe(1300);
    expect(panView(z, 100).start).toBe(z.start - 50);
  });

  it('fit puts the whole range inside the width', () => {
    const v = fitView(0, 10_000, 1072);
    expect(v.start).toBeLessThan(0);
    expect((10_000 - v.start) * v.pxPerMs).toBeLessThanOrEqual(1072);
  });

  it('ticks fall on 1-2-5 steps and are labelled as offsets from the run start', () => {
    expect(tickStep(1)).toBe(100);
    expect(tickStep(0.01)).toBe(10_000);
    const t = ticks({ start: 5, pxPerMs: 1 }, 400, 0);
    expect(t.map((x) => x.offsetMs)).toEqual([100, 200, 300, 400]);
    expect(t[0].x).toBe(95);
    expect(formatOffset(250)).toBe('+250 ms');
    expect(formatOffset(1500)).toBe('+1.5 s');
    expect(formatOffset(125_000)).toBe('+2 m 5 s');
  });
});
