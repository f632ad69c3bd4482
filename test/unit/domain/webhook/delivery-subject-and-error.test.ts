import { attemptErrorKind, connectionFailedMessage, TARGET_UNREACHABLE, timeoutMessage } from '../../../../src/domain/webhook/attempt-error';
import { deliverySubjectOf } from '../../../../src/domain/webhook/delivery-subject';

const envelope = (type: string, data: object) => JSON.stringify({ id: 'evt_1', type, createdAt: '2026-12-06T00:00:00Z', data });

describe('deliverySubjectOf', () => {
  it.each([
    ['page.version.created', { pageId: 'pagevar_1', pageGroupId: 'page_1', version: 2 }, 'pagevar_1'],
    ['brand.created', { id: 'brand_1', name: 'B' }, 'brand_1'],
    ['brand.updated', { id: 'brand_2' }, 'brand_2'],
    ['webhook_subscription.failing', { id: 'whsub_1', active: true }, 'whsub_1'],
    ['webhook.test', { id: 'whsub_1' }, null],
    ['page.version.created', { pageGroupId: 'page_1' }, null],
    ['page.version.created', { pageId: 42 }, null],
  ])('%s about %j is %s', (type, data, subject) => {
    expect(deliverySubjectOf(type, envelope(type, data))).toBe(subject);
  });

  it('is null for a body that is not JSON', () => {
    expect(deliverySubjectOf('brand.created', '{not json')).toBeNull();
  });
});

describe('attemptErrorKind', () => {
  it.each([
    [204, null, null],
    [299, null, null],
    [301, null, 'http_status'],
    [500, null, 'http_status'],
    [null, timeoutMessage(10_000), 'timeout'],
    [null, connectionFailedMessage('ECONNREFUSED'), 'connection'],
    [null, connectionFailedMessage(), 'connection'],
    [null, TARGET_UNREACHABLE, 'unreachable'],
    [null, 'expired: kept past the retention', 'connection'],
  ])('status %s with %j is %s', (status, error, kind) => {
    expect(attemptErrorKind(status, error)).toBe(kind);
  });
});
