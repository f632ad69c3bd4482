import { Clock } from '../../domain/shared/clock';

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
