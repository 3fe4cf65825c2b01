/**
 * SimulatedClock starts a timer scheduled during `increment` at the new "now", so one big increment
 * fires only the first link of a chain of timers (a countdown). `advance` moves in steps of at most
 * one second, the way real time passes for such chains.
 */
import type { SimulatedClock } from 'xstate';

export function advance(clock: SimulatedClock, ms: number, stepMs = 1000): void {
  for (let left = ms; left > 0; left -= stepMs) clock.increment(Math.min(stepMs, left));
}
