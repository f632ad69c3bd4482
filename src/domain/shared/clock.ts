/** The time source of the core, a port so that tests fix the time. */
export abstract class Clock {
  abstract now(): Date;
}
