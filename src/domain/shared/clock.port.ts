/** The time source of the core, a port so that tests fix the time. */
export abstract class Clock {
  abstract now(): Date;
}

/**
 * The `updatedAt` of a change made at `now`: never before, nor equal to, the previous one, so that
 * every change is seen as newer even when two land within the same millisecond or the clock
 * stepped back (what customers compare to detect a change).
 */
export function movedForward(previous: Date, now: Date): Date {
  return new Date(Math.max(now.getTime(), previous.getTime() + 1));
}
