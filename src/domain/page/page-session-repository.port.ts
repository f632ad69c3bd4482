import { PageSession } from './page-session';

export abstract class PageSessionRepository {
  /** Writes the session and adds its UTM values to the group's distinct values, in the unit of work. */
  abstract add(session: PageSession): Promise<void>;
}
