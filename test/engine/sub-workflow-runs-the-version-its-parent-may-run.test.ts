// Guarantees: which version of a child a `workflow` node runs. A draft parent (an editor test run) runs the child's
// current published version by default, its draft only when it asks for "draft", or a numbered version that must
// exist; a never-published child is refused. A published parent (its run has a versionId) runs the version pinned
// in its own graph at publish time — never the child's draft, nor a later version — even if it asked for "draft".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childGraph, createSubWorkflowHarness, parentGraph, type SubWorkflowHarness } from './sub-workflow-support';

describe('the version a sub-workflow runs', () => {
  let h: SubWorkflowHarness;
  let child = '';
  beforeAll(async () => {
    h = await createSubWorkflowHarness();
    child = await h.createWorkflow(childGraph('v1'), { name: 'Versioned' });
    await h.publish(child); // version 1: "v1"
    await h.store.updateWorkflow(child, { graph: childGraph('v2') });
    await h.publish(child); // version 2: "v2", current
    await h.store.updateWorkflow(child, { graph: childGraph('draft') });
  });
  afterAll(async () => {
    await h?.close();
  });

  const greetingOf = async (parent: string, version?: Parameters<SubWorkflowHarness['runToEnd']>[2]) => {
    const run = await h.runToEnd(parent, {}, version);
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'w1');
    return run.status === 'succeeded' ? (run.outputs!.greeting as string) : (node?.error as any);
  };

  it('a draft parent: published by default, "draft" on request, or a given version number', async () => {
    expect(await greetingOf(await h.createWorkflow(parentGraph(child)))).toBe('v2, Ada');
    expect(await greetingOf(await h.createWorkflow(parentGraph(child, { version: 'published' })))).toBe('v2, Ada');
    expect(await greetingOf(await h.createWorkflow(parentGraph(child, { version: 'draft' })))).toBe('draft, Ada');
    expect(await greetingOf(await h.createWorkflow(parentGraph(child, { version: 1 })))).toBe('v1, Ada');
    expect(await greetingOf(await h.createWorkflow(parentGraph(child, { version: 9 })))).toMatchObject({
      code: 'CHILD_VERSION_NOT_FOUND',
    });
    const child1 = (await h.store.listRuns(child)).find((r) => r.outputs?.greeting === 'v1, Ada')!;
    expect(child1.versionId).toBe((await h.store.getVersionByNumber(child, 1))!.id);
  });

  it('a never-published child is refused unless a draft run asks for its draft', async () => {
    const fresh = await h.createWorkflow(childGraph('only a draft'));
    expect(await greetingOf(await h.createWorkflow(parentGraph(fresh)))).toMatchObject({
      code: 'CHILD_NOT_PUBLISHED',
    });
    expect(await greetingOf(await h.createWorkflow(parentGraph(fresh, { version: 'draft' })))).toBe(
      'only a draft, Ada',
    );
  });

  it('a published parent runs the pinned version, even when it asked for the draft', async () => {
    const parent = await h.createWorkflow(parentGraph(child, { version: 'draft' }));
    const pinned = parentGraph(child, { version: 'draft', pinnedVersion: 1 });
    const version = await h.publish(parent, pinned);
    expect(await greetingOf(parent, version)).toBe('v1, Ada');
    // Without a pin (a version published before pins existed) it is the child's current published version.
    const unpinned = await h.publish(parent, parentGraph(child, { version: 'draft' }));
    expect(await greetingOf(parent, unpinned)).toBe('v2, Ada');
    // The trace names the version that ran.
    const run = await h.runToEnd(parent, {}, version);
    const link = (await h.events(run.id)).find((e) => e.type === 'node.progress' && e.data.childRun);
    expect(link!.data.childRun).toMatchObject({ workflowId: child, version: 1 });
  });
});
