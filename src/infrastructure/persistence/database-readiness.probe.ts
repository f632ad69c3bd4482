import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ReadinessProbe } from '../../application/health/readiness.probe';

@Injectable()
export class DatabaseReadinessProbe extends ReadinessProbe {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async check(): Promise<void> {
    await this.orm.em.getConnection().execute('SELECT 1');
  }
}
