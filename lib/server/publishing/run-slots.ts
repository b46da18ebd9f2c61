/**
 * The per-workflow cap on concurrent runs started through the published endpoint. Counted in this process (runs
 * execute in the process that started them); a slot is held until the run's execution here ends or pauses.
 */
export class RunSlots {
  private readonly inUse = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a slot; false when the workflow is at its cap. */
  tryAcquire(workflowId: string): boolean {
    const n = this.inUse.get(workflowId) ?? 0;
    if (n >= this.max) return false;
    this.inUse.set(workflowId, n + 1);
    return true;
  }

  release(workflowId: string): void {
    const n = (this.inUse.get(workflowId) ?? 0) - 1;
    if (n > 0) this.inUse.set(workflowId, n);
    else this.inUse.delete(workflowId);
  }

  count(workflowId: string): number {
    return this.inUse.get(workflowId) ?? 0;
  }
}
