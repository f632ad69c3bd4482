import { MikroORM } from '@mikro-orm/postgresql';
import { Template } from '../../src/domain/template/template';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { SqlTemplateRepository } from '../../src/infrastructure/persistence/repositories/sql-template.repository';
import { inContext, openTestOrm } from '../support/database';
import { newTenantId } from '../support/builders/stored';

// Templates are read and written with plain statements (no ORM change tracking): what is read
// back must be the aggregate that was written, with its behaviour.
let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

const newTenant = () => newTenantId(orm, 'Templates');

describe('template persistence', () => {
  it('reads back a system template and a copy as written, visible only where they should be', async () => {
    const [owner, other] = [await newTenant(), await newTenant()];
    const system = Template.createSystem({ name: 'Launch "x" 🚀', templateContent: '<h1>? $1 \\ \n</h1>', description: null }, new Date('2026-11-23T01:02:03.456Z'));
    const copy = system.duplicateFor(owner, undefined, new Date('2026-11-23T02:03:04.567Z'));
    const repo = new SqlTemplateRepository(orm.em.fork());
    await repo.add(system);
    await repo.add(copy);

    const read = await repo.findVisible(owner, copy.id);
    expect(read).toBeInstanceOf(Template);
    expect(read).toEqual(copy);
    expect(read!.isVisibleTo(owner)).toBe(true);
    expect(await repo.findVisible(other, copy.id)).toBeNull();
    expect(await repo.findSystem(copy.id)).toBeNull();
    expect(await repo.findSystem(system.id)).toEqual(system);
    expect(await repo.findVisible(other, system.id)).toEqual(system);
  });

  it('sees its own writes inside a unit of work, and writes nothing when it rolls back', async () => {
    const system = Template.createSystem({ name: 'In a transaction?', templateContent: "it's ? and $1 and ?? \\" }, new Date());
    await expect(
      inContext(orm, () =>
        new MikroOrmUnitOfWork(orm.em).run(async () => {
          const repo = new SqlTemplateRepository(orm.em);
          await repo.add(system);
          expect(await repo.findSystem(system.id)).toEqual(system);
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(await new SqlTemplateRepository(orm.em.fork()).findSystem(system.id)).toBeNull();
  });
});
