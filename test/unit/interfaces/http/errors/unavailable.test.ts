import { isDatabaseUnavailable } from '../../../../../src/interfaces/http/errors/unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '08006' }],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
    [{ name: 'ConnectionException' }],
    [{ message: 'wrapped', cause: { code: 'ECONNRESET' } }],
    [{ errors: [{ code: 'ECONNREFUSED' }] }],
  ])('says yes for %j', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([[new Error('duplicate key value violates unique constraint')], [{ code: '23505' }], [null], ['text'], [new TypeError('x is undefined')]])(
    'says no for %j',
    (error) => {
      expect(isDatabaseUnavailable(error)).toBe(false);
    },
  );
});
