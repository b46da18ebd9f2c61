/**
 * Sub-workflow: runs another workflow of the same workspace as one node. Its config maps the child's start inputs
 * to templates (resolved like any node config); its output is the child's end outputs by name plus `runId`, the
 * child run, which is announced (`node.progress` with `childRun`) as soon as it exists so the trace can link to it.
 * Which version runs is decided by the WorkflowRunner (engine/runtime/workflow-runner.ts): a published parent always
 * runs the child version pinned when it was published (`pinnedVersion`, written by lib/server/publishing/publish.ts).
 */
import { z } from 'zod';
import type { ChildRunOptions, ChildRunResult } from '../../node-kit/agent-services';
import { ToolPolicyError } from '../../agent/tool-errors';
import { PaiError } from '../../errors';
import { defineNode } from '../../node-kit/define';

const INPUT_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const workflowConfigSchema = z.strictObject({
  workflowId: z.string().min(1, 'choose a workflow').max(200).describe('The workflow to run (same workspace)'),
  inputs: z
    .record(z.string().regex(INPUT_NAME_RE, 'input names are identifiers: letters, digits, _'), z.unknown())
    .default({})
    .describe("The child's start inputs, each a value or a template such as {{inputs.question}}"),
  version: z
    .union([z.enum(['published', 'draft']), z.number().int().min(1).max(2_147_483_647)])
    .default('published')
    .describe(
      'published: its current published version; a number: that version; draft: its draft (editor test runs ' +
        'only — a published workflow always runs the version pinned when it was published)',
    ),
});
export type WorkflowNodeConfig = z.infer<typeof workflowConfigSchema>;

/** Output keys the node sets itself; a child output of the same name is shadowed by them. */
const RESERVED_OUTPUTS = new Set(['runId']);

export const workflowNode = defineNode<WorkflowNodeConfig>({
  type: 'workflow',
  capabilities: { startsChildRuns: true },
  version: 1,
  label: 'Sub-workflow',
  category: 'flow',
  description: "Runs another workflow of this workspace and outputs its end outputs (and the child's runId).",
  configSchema: workflowConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [{ path: 'runId', description: "The child run's id (its end outputs are fields too, by name)" }],
  sideEffects: true,
  checkConfig(config) {
    return Object.keys(config.inputs)
      .filter((k) => ['__proto__', 'constructor', 'prototype'].includes(k))
      .map((k) => ({ code: 'RESERVED_INPUT_NAME', message: `"${k}" cannot be an input name`, path: `inputs.${k}` }));
  },
  async execute(ctx) {
    const runner = ctx.agent?.workflows;
    if (!runner)
      throw new PaiError('SUBWORKFLOWS_UNAVAILABLE', 'this runtime cannot run sub-workflows', { path: 'config' });
    const { workflowId, inputs, version } = ctx.config;
    let announced = false;
    const announce = (child: { runId: string; version: number | 'draft' | null }) => {
      if (announced) return;
      announced = true;
      ctx.emit('node.progress', { childRun: { runId: child.runId, workflowId, version: child.version } });
    };
    const opts: ChildRunOptions = {
      signal: ctx.signal,
      parentRunId: ctx.runId,
      parentNodeId: ctx.nodeId,
      version,
      onStarted: announce,
    };
    // The child run an earlier execution of this node started (a resume or restart of this run): continue it, so
    // the child's completed nodes are not run again either.
    const saved = (await ctx.checkpoint.load<{ childRunId?: string; version?: number | 'draft' | null }>())?.state;
    let r: ChildRunResult | null = null;
    if (saved?.childRunId && runner.continue) {
      const continued = await runner.continue(saved.childRunId, { signal: ctx.signal, parentRunId: ctx.runId });
      if (continued) {
        r = { ...continued, version: saved.version ?? undefined };
        ctx.emit('node.progress', {
          childRun: { runId: r.runId, workflowId, version: saved.version ?? null, continued: true },
        });
        announced = true;
      }
    }
    const remember = (child: { runId: string; version: number | 'draft' | null }) => {
      announce(child);
      ctx.checkpoint.save({ childRunId: child.runId, version: child.version }).catch(() => {
        // not stored: a resume starts a new child run (the run's own commit reports the store's failure)
      });
    };
    r ??= await runner.run(workflowId, inputs, { ...opts, onStarted: remember }).catch((e: unknown) => {
      // The nesting limit is a policy refusal for agent tools; for this node it is a failure with a code.
      if (e instanceof ToolPolicyError)
        throw new PaiError('WORKFLOW_DEPTH_LIMIT', e.message, { details: { workflowId } });
      throw e;
    });
    announce({ runId: r.runId, version: r.version ?? null });
    const details = { runId: r.runId, workflowId, error: r.error ?? null };
    if (r.status === 'waiting')
      throw new PaiError(
        'SUBWORKFLOW_WAITING',
        `the child run ${r.runId} is waiting for a person (human input), which a sub-workflow cannot pause for`,
        { details },
      );
    if (r.status !== 'succeeded')
      throw new PaiError(
        'SUBWORKFLOW_FAILED',
        `the child run ${r.runId} ${r.status}${r.error ? `: ${r.error.message}` : ''}`,
        { details },
      );
    const output: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.outputs ?? {})) if (!RESERVED_OUTPUTS.has(k)) output[k] = v;
    output.runId = r.runId;
    return { output };
  },
});
