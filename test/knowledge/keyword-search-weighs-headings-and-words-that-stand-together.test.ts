// Guarantee: keyword search ranks a chunk whose words stand together as in the query above one where they are
// scattered (the proximity boost both stores add in the app), and, when a headings boost is set, a chunk whose
// heading path names the query above one that mentions it in passing — each field scored on its own statistics.
import { describe, expect, it } from 'vitest';
import { analyze } from '@/engine/knowledge/analyzer';
import { Bm25Index } from '@/engine/knowledge/embedded/bm25-index';
import { FieldedBm25 } from '@/engine/knowledge/embedded/fielded-bm25';
import { adjacentPairShare, withProximity } from '@/engine/knowledge/proximity';

describe('proximity', () => {
  it('counts the query pairs that occur in order, a gap of at most two terms apart', () => {
    const q = analyze('route prefixing plugin');
    expect(adjacentPairShare(q, analyze('Route prefixing is done with care inside every plugin'))).toBe(0.5);
    expect(adjacentPairShare(q, analyze('Route prefixing is done by a plugin'))).toBe(1); // stop words left out
    expect(adjacentPairShare(q, analyze('The plugin sets a prefix for each route'))).toBe(0);
    expect(adjacentPairShare(analyze('上传文件'), analyze('如何获取上传的文件'))).toBeGreaterThan(0);
    expect(adjacentPairShare(analyze('route'), analyze('route'))).toBe(0); // one term: nothing to boost
  });

  it('lifts the chunk where the words stand together above an equal BM25 match', () => {
    const texts: Record<string, string> = {
      apart: 'The prefix of a route is set by the plugin.',
      together: 'Route prefixing applies to the plugin.',
    };
    const boosted = withProximity(
      'route prefixing',
      [
        { key: 'apart', score: 2 },
        { key: 'together', score: 1.9 },
      ],
      (k) => texts[k],
    );
    const best = boosted.sort((a, b) => b.score - a.score)[0];
    expect(best.key).toBe('together');
  });
});

describe('headings field', () => {
  it('weighs a heading that names the query above a passing mention in the body', () => {
    const index = new FieldedBm25(1);
    index.add(0, 'Guide\nTimeouts can be set per route, see the options.', '');
    index.add(1, 'Guide\nTimeouts default to ten seconds, it can be raised.', 'Server options\nTimeouts');
    const r = index.score('timeouts', () => true);
    try {
      expect(r.scoreOf(1)).toBeGreaterThan(r.scoreOf(0));
    } finally {
      r.release();
    }
    const plain = new FieldedBm25(0);
    plain.add(0, 'Guide\nTimeouts can be set per route, see the options.', '');
    plain.add(1, 'Guide\nTimeouts default to ten seconds, it can be raised.', 'Server options\nTimeouts');
    const bodies = new Bm25Index();
    bodies.add(0, 'Guide\nTimeouts can be set per route, see the options.');
    bodies.add(1, 'Guide\nTimeouts default to ten seconds, it can be raised.');
    const p = plain.score('timeouts', () => true);
    const b = bodies.score('timeouts', () => true);
    try {
      // Boost 0 (the measured default): the headings field takes no part, the body alone scores.
      expect(p.scoreOf(1)).toBeCloseTo(b.scoreOf(1), 12);
    } finally {
      p.release();
      b.release();
    }
  });
});
