/** The run timeline's data: what a bar (one span of the run) and a row (a bar placed in the tree) hold. */
export type BarKind = 'node' | 'iteration' | 'attempt' | 'round' | 'agent' | 'tool' | 'retrieval' | 'wait';
export type BarStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'waiting' | 'cancelled';

export interface BarUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number | null;
}

export interface TimelineBar {
  id: string;
  parentId: string | null;
  kind: BarKind;
  /** What it is beyond its kind: the tool's name, the round's title, the wait's subject (a node bar: its node id). */
  name: string;
  nodeId?: string;
  nodeType?: string;
  status: BarStatus;
  /** Epoch ms. */
  start: number;
  /** Epoch ms; null while the span is open. */
  end: number | null;
  /** The duration the engine measured, when it reported one (more exact than end − start). */
  reportedMs?: number | null;
  usage?: BarUsage | null;
  attempt?: number;
  iteration?: number;
  error?: string;
  /** Facts for the detail view, in order: [label, value]. */
  details: Array<[string, string]>;
  children: string[];
  /** The seq of the event that opened the bar. */
  seq: number;
}

export interface TimelineRow {
  bar: TimelineBar;
  depth: number;
  hasChildren: boolean;
}
