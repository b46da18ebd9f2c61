/**
 * Which changes of a publish gate let through a draft the old gate would refuse: removing the gate, moving it to
 * another dataset, removing a scorer or changing how one scores, lowering a `minMean` or dropping it, raising a
 * `maxDrop` (the rule against the published version, the baseline) or dropping it. Each of these needs the role that
 * may force a publish, since it has the same effect; raising a bar, adding a scorer or changing the concurrency does
 * not. Every change of a gate is audited (the publish route), the weakenings named.
 */
import type { EvaluationGate } from '@/engine/store/evaluations';

export interface GateWeakening {
  /** What became weaker: `gate`, `datasetId`, `scorers.<name>`, `minMean.<name>` or `maxDrop.<name>`. */
  path: string;
  /** In words, for the refusal and the audit log. */
  reason: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The ways `after` is weaker than `before` (none when `before` is null: a new gate only adds bars). */
export function gateWeakenings(before: EvaluationGate | null, after: EvaluationGate | null): GateWeakening[] {
  if (!before) return [];
  if (!after) return [{ path: 'gate', reason: 'removes the gate' }];
  const out: GateWeakening[] = [];
  if (after.datasetId !== before.datasetId)
    out.push({ path: 'datasetId', reason: `moves the gate from dataset ${before.datasetId} to ${after.datasetId}` });
  for (const scorer of before.scorers) {
    const now = after.scorers.find((s) => s.name === scorer.name);
    if (!now) out.push({ path: `scorers.${scorer.name}`, reason: `removes the scorer "${scorer.name}"` });
    else if (!same(now, scorer))
      out.push({ path: `scorers.${scorer.name}`, reason: `changes how the scorer "${scorer.name}" scores` });
  }
  for (const [name, was] of Object.entries(before.minMean ?? {})) {
    const now = after.minMean?.[name];
    if (now === undefined) out.push({ path: `minMean.${name}`, reason: `drops the minimum mean of "${name}"` });
    else if (now < was)
      out.push({ path: `minMean.${name}`, reason: `lowers the minimum mean of "${name}" from ${was} to ${now}` });
  }
  for (const [name, was] of Object.entries(before.maxDrop ?? {})) {
    const now = after.maxDrop?.[name];
    if (now === undefined)
      out.push({ path: `maxDrop.${name}`, reason: `drops the limit on how far "${name}" may fall` });
    else if (now > was)
      out.push({ path: `maxDrop.${name}`, reason: `lets "${name}" fall by ${now} instead of ${was}` });
  }
  return out;
}
