// Guarantees: a template's Chinese copy names every condition branch in Chinese (the gallery preview and the editor
// show those labels), while the branch ids that its edges route by stay the same; the English copy is unchanged.
import { describe, expect, it } from 'vitest';
import { localizedGraph, TEMPLATES } from '@/engine/templates';

const CJK = /[\u4e00-\u9fff]/;

function branchesOf(graph: ReturnType<typeof localizedGraph>) {
  return graph.nodes
    .filter((n) => n.type === 'condition')
    .flatMap((n) =>
      ((n.data.config as { branches?: Array<{ id: string; label?: string }> }).branches ?? []).map((b) => ({
        node: n.id,
        id: b.id,
        label: b.label ?? '',
      })),
    );
}

describe('template branch labels', () => {
  const withBranches = TEMPLATES.filter((t) => branchesOf(localizedGraph(t, 'en')).length > 0);

  it('some templates have condition branches', () => {
    expect(withBranches.map((t) => t.id)).toEqual(
      expect.arrayContaining(['support-triage', 'approval-before-http', 'draft-review-loop']),
    );
  });

  it.each(withBranches.map((t) => [t.id, t] as const))('%s: Chinese labels, the same ids', (_id, template) => {
    const en = branchesOf(localizedGraph(template, 'en'));
    const zh = branchesOf(localizedGraph(template, 'zh'));
    expect(zh.map((b) => [b.node, b.id])).toEqual(en.map((b) => [b.node, b.id]));
    for (const b of zh) expect({ ...b, chinese: CJK.test(b.label) }).toMatchObject({ chinese: true });
    for (const b of en) expect(CJK.test(b.label)).toBe(false);
    // The template itself is shared data: localising never changes it.
    expect(branchesOf(template.graph)).toEqual(en);
  });
});
