/**
 * Gives the event loop a turn when this process has gone ~10 ms without one. A run of pure nodes is one long chain of
 * promise callbacks (microtasks): nothing in it waits for I/O, so without a turn no other request is even read off
 * its socket until the run ends. Both engines check `turnIsDue()` before each node: a clock read, and a
 * `setImmediate` turn only when one is due (no extra await otherwise).
 *
 * "Since the last turn" is process-wide, not per run: a probe scheduled with setImmediate notes when the loop last
 * reached its check phase, so a run that just waited for I/O (the loop turned meanwhile) is not made to yield again.
 */
export const TURN_EVERY_MS = 10;

let lastTurnAt = performance.now();
let probeArmed = false;

function probe() {
  probeArmed = false;
  lastTurnAt = performance.now();
}

/** True when the loop has not turned for TURN_EVERY_MS; arms the probe that notices the next turn. */
export function turnIsDue(): boolean {
  if (!probeArmed) {
    probeArmed = true;
    setImmediate(probe);
  }
  return performance.now() - lastTurnAt >= TURN_EVERY_MS;
}

/** One event-loop turn (I/O callbacks, timers, other requests run), for `if (turnIsDue()) await nextTurn()`. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
