import { Clock } from '../../domain/shared/clock.port';

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
