import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Optional } from '@nestjs/common';
import { ReadinessProbe } from '../../application/health/readiness.probe';
import { RateLimiter } from '../../application/rate-limit/rate-limiter';
import { RedisRateLimiter } from '../rate-limit/redis-rate-limiter';

@Injectable()
export class DatabaseReadinessProbe extends ReadinessProbe {
  constructor(
    private readonly orm: MikroORM,
    @Optional() private readonly limiter?: RateLimiter,
  ) {
    super();
  }

  async check(): Promise<Record<string, 'ok' | 'unavailable'>> {
    await this.orm.em.getConnection().execute('SELECT 1');
    if (!(this.limiter instanceof RedisRateLimiter)) return { database: 'ok' };
    const redis = await this.limiter.redis.ping().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    return { database: 'ok', redis };
  }
}
