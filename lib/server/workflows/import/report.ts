/**
 * The import report (POST /api/workflows/import with `format: "dify" | "n8n"`): for every node of the source
 * workflow, what became of it and why, in English and Simplified Chinese (the workflow list shows it).
 *   mapped        — a PaiFlow node does the same;
 *   approximated  — a PaiFlow node is there, but behaves differently or needs a change before it does the same;
 *   dropped       — nothing in PaiFlow does it: the node was left out and its neighbours joined.
 */

import type { ConversationVariable } from '@/engine/template/conversation-variables';
import type { ImportedEdge, ImportedNode } from './graph-builder';

/** A sentence in both languages. */
export interface Text {
  en: string;
  zh: string;
}

export const t = (en: string, zh: string): Text => ({ en, zh });

export const OUTCOMES = ['mapped', 'approximated', 'dropped'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface ImportReportEntry {
  /** The node's id in the source workflow (n8n: its id, else its name). */
  id: string;
  /** The node's type in the source workflow (`llm`, `n8n-nodes-base.httpRequest` …). */
  type: string;
  /** The node's title in the source workflow. */
  title: string;
  /** The PaiFlow node(s) it became; empty when dropped. */
  nodeIds: string[];
  why: string;
  whyZh: string;
  /** A trigger it maps to: the body of POST /api/workflows/:id/triggers, for the user to create once published. */
  trigger?: Record<string, unknown>;
}

export type ImportReport = Record<Outcome, ImportReportEntry[]>;

/** What a converter (dify.ts, n8n.ts) makes of a source workflow. */
export interface ConvertedWorkflow {
  name: string;
  description: string;
  /** The PaiFlow graph (graph-builder.ts's ImportedGraph). */
  graph: { nodes: ImportedNode[]; edges: ImportedEdge[]; conversationVariables?: ConversationVariable[] };
  report: ImportReport;
}

export interface ReportItem {
  outcome: Outcome;
  id: string;
  type: string;
  title: string;
  nodeIds: string[];
  why: Text[];
  trigger?: Record<string, unknown>;
}

/** Collects one item per source node; notes found later (an expression that could not be kept) make it approximated. */
export class ReportBuilder {
  private readonly items: ReportItem[] = [];
  private readonly byId = new Map<string, ReportItem>();

  add(item: ReportItem): ReportItem {
    this.items.push(item);
    this.byId.set(item.id, item);
    return item;
  }

  get(id: string): ReportItem | undefined {
    return this.byId.get(id);
  }

  /** Adds a reason to a node's item; a mapped node with a caveat is approximated. */
  note(id: string, why: Text): void {
    const item = this.byId.get(id);
    if (!item) return;
    if (!item.why.some((w) => w.en === why.en)) item.why.push(why);
    if (item.outcome === 'mapped') item.outcome = 'approximated';
  }

  build(): ImportReport {
    const report: ImportReport = { mapped: [], approximated: [], dropped: [] };
    for (const item of this.items)
      report[item.outcome].push({
        id: item.id,
        type: item.type,
        title: item.title,
        nodeIds: item.outcome === 'dropped' ? [] : item.nodeIds,
        why: item.why.map((w) => w.en).join(' '),
        whyZh: item.why.map((w) => w.zh).join(''),
        ...(item.trigger ? { trigger: item.trigger } : {}),
      });
    return report;
  }
}

/**
 * "Mapped" is a claim about the result: an entry whose PaiFlow nodes have a problem PaiFlow's validation reports
 * (a reference it cannot resolve, a config it refuses) is approximated, with the problem as the reason.
 */
export function demoteEntriesWithProblems(
  report: ImportReport,
  problems: ReadonlyArray<{ message: string; nodeIds?: string[] }>,
): ImportReport {
  const byNode = new Map<string, string[]>();
  for (const p of problems) for (const id of p.nodeIds ?? []) byNode.set(id, [...(byNode.get(id) ?? []), p.message]);
  const keep: ImportReportEntry[] = [];
  const demoted: ImportReportEntry[] = [];
  for (const e of report.mapped) {
    const messages = [...new Set(e.nodeIds.flatMap((id) => byNode.get(id) ?? []))];
    if (!messages.length) keep.push(e);
    else
      demoted.push({
        ...e,
        why: `${e.why} PaiFlow reports a problem to fix before it runs: ${messages.join('; ')}.`,
        whyZh: `${e.whyZh}PaiFlow 报告了需要先修正的问题：${messages.join('；')}。`,
      });
  }
  return { ...report, mapped: keep, approximated: [...report.approximated, ...demoted] };
}

const MAX_DESCRIPTION = 5000;

/** A workflow's description from the source's description and the notes on its canvas, within PaiFlow's limit. */
export function notesAsDescription(notes: readonly string[], description = ''): string {
  const parts = [description.trim(), ...notes.map((n) => n.trim())].filter(Boolean);
  const text = parts.join('\n\n---\n\n');
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
