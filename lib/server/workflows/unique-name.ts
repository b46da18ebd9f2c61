/**
 * A workflow name no other workflow of the workspace has: an import (or a copy from a template) of "Support bot"
 * next to an existing "Support bot" becomes "Support bot (2)", then "(3)", as in file managers. A name that already
 * ends in " (n)" counts on from its base, so importing "Support bot (2)" twice gives "Support bot (3)", not
 * "Support bot (2) (2)". Names are not unique in the database: two imports at the same instant may still agree.
 */
import type { App } from '../app-types';

/** The longest name a workflow may have (workflowBodySchema's nameSchema(200)). */
const MAX_NAME = 200;
const NUMBERED = /^(.*\S) \((\d{1,6})\)$/;

/** `name` itself when free, else `base (n)` with the smallest n ≥ 2 that is free, cut to fit MAX_NAME. */
export function firstFreeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const base = NUMBERED.exec(name)?.[1] ?? name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${base.slice(0, MAX_NAME - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export async function uniqueWorkflowName(app: App, workspaceId: string, name: string): Promise<string> {
  const base = NUMBERED.exec(name)?.[1] ?? name;
  // Only names that could collide are read: the workspace's workflows whose names start like this one.
  const names = await app.stores.workflowNames.startingWith(workspaceId, base.slice(0, MAX_NAME - 10).trimEnd());
  return firstFreeName(name, new Set(names));
}
