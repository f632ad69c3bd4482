import { checkOrdering, orderFor, orderPositionOf, turnTaker } from '../../../../src/domain/webhook/delivery-ordering';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

const body = (data: object) => JSON.stringify({ id: 'evt_1', type: 'page.version.created', createdAt: '2026-11-28T00:00:00.000Z', tenantId: 't', data });

describe('delivery ordering', () => {
  it('takes none or page, none when absent, and names the field otherwise', () => {
    expect(checkOrdering(undefined)).toBe('none');
    expect(checkOrdering('page')).toBe('page');
    for (const bad of [null, 'PAGE', 'brand', 1, {}]) expect(() => checkOrdering(bad)).toThrow(InvalidValueError);
    expect(() => checkOrdering('x')).toThrow(expect.objectContaining({ details: { field: 'ordering', reason: 'must be one of none, page' } }));
  });

  it('places a page version in its page by its number; other kinds and malformed bodies have no place', () => {
    expect(orderPositionOf('page.version.created', body({ pageId: 'pagevar_1', version: 4 }))).toEqual({ key: 'pagevar_1', seq: 4 });
    expect(orderPositionOf('brand.updated', body({ pageId: 'pagevar_1', version: 4 }))).toBeNull();
    expect(orderPositionOf('page.version.created', body({ pageId: 'pagevar_1' }))).toBeNull();
    expect(orderPositionOf('page.version.created', body({ pageId: 'pagevar_1', version: 1.5 }))).toBeNull();
    expect(orderPositionOf('page.version.created', '{not json')).toBeNull();
    // An own property only: a kind named like Object's members is not ordered.
    expect(orderPositionOf('constructor', body({ pageId: 'p', version: 1 }))).toBeNull();
  });

  it('orders only for a subscription that orders', () => {
    expect(orderFor('none', () => ({ key: 'p', seq: 1 }))).toBeNull();
    expect(orderFor('page', () => ({ key: 'p', seq: 1 }))).toEqual({ key: 'p', seq: 1 });
  });

  describe('which new delivery takes the page\'s turn', () => {
    it.each([
      { turn: { taken: false, earliestAhead: null }, seqs: [3, 2, 4], taker: 1, why: 'the earliest new one, when nothing has the turn or waits' },
      { turn: { taken: true, earliestAhead: null }, seqs: [3], taker: null, why: 'none while a delivery has the turn' },
      { turn: { taken: false, earliestAhead: 2 }, seqs: [3], taker: null, why: 'none while an earlier one waits or is being relayed' },
      { turn: { taken: false, earliestAhead: 5 }, seqs: [3, 4], taker: 0, why: 'the earliest, when only later ones wait (relayed before it by another relay)' },
      { turn: { taken: false, earliestAhead: null }, seqs: [], taker: null, why: 'none of none' },
    ])('$why', ({ turn, seqs, taker }) => {
      expect(turnTaker(turn, seqs)).toBe(taker);
    });
  });
});
