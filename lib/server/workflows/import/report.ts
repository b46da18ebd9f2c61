/**
 * The import report (POST /api/workflows/import with `format: "dify" | "n8n"`): for every node of the source
 * workflow, what became of it and why, in English and Simplified Chinese (the workflow list shows it).
 *   mapped        — a PaiFlow node does the same;
 *   approximated  — a PaiFlow node is there, but behaves differently or needs a change before it does the same;
 *   dropped       — nothing in PaiFlow does it: the node was left out and its neighbours joined.
 */

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
