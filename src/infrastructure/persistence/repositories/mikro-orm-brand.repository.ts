import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Brand } from '../../../domain/brand/brand';
import { BrandRepository } from '../../../domain/brand/brand.repository';

@Injectable()
export class MikroOrmBrandRepository extends BrandRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Brand | null> {
    return this.em.findOne(Brand, { id, tenantId }, options.forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  async save(brand: Brand): Promise<void> {
    await this.em.persist(brand).flush();
  }
}
