/**
 * Which workflow export a file holds, from its content (not its name): a PaiFlow export (JSON with
 * `format: "paiflow.workflow"`), an n8n workflow (JSON with `nodes` and `connections`, or n8n's CLI export: a list of
 * one) or a Dify DSL export (YAML with `app:` and `workflow:`), and the body POST /api/workflows/import takes for it.
 */

export type ImportFormat = 'paiflow' | 'dify' | 'n8n';

export interface ImportRequest {
  format: ImportFormat;
  body: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isN8n = (v: unknown) => isObject(v) && Array.isArray(v.nodes) && isObject(v.connections);
/** A Dify DSL file (YAML) has the top-level keys `app:` and `workflow:`. */
const isDifyYaml = (text: string) => /^app:/m.test(text) && /^workflow:/m.test(text);

/** The import request for a file's text, or null when it is none of the three exports. */
export function importRequestFor(text: string): ImportRequest | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return isDifyYaml(text) ? { format: 'dify', body: { format: 'dify', content: text } } : null;
  }
  if (isObject(json) && json.format === 'paiflow.workflow') return { format: 'paiflow', body: json };
  if (isN8n(json) || (Array.isArray(json) && json.length > 0 && isN8n(json[0])))
    return { format: 'n8n', body: { format: 'n8n', content: json } };
  if (isObject(json) && isObject(json.app) && isObject(json.workflow))
    return { format: 'dify', body: { format: 'dify', content: text } };
  return null;
}

/** Files the import picker offers. */
export const IMPORT_ACCEPT = '.json,.yml,.yaml,application/json,application/yaml,text/yaml';

/** One node of the source workflow in the import report (lib/server/workflows/import/report.ts). */
export interface ImportReportEntry {
  id: string;
  type: string;
  title: string;
  nodeIds: string[];
  why: string;
  whyZh: string;
  trigger?: Record<string, unknown>;
}

export interface ImportReport {
  format: 'dify' | 'n8n';
  mapped: ImportReportEntry[];
  approximated: ImportReportEntry[];
  dropped: ImportReportEntry[];
}
