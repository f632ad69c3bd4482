import { InvalidValueError } from '../../../../src/domain/shared/domain-error';
import { MAX_PREVIOUS_SECRETS, secretsStillValid } from '../../../../src/domain/webhook/signing-secrets';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';

const T0 = new Date('2026-11-25T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const subscription = () => WebhookSubscription.create({ tenantId: 'tenant_1', url: 'https://hooks.example/x', events: ['brand.created'] }, 'whsec_0', T0);

describe('rotating a signing secret', () => {
  it('keeps the old secret valid for the overlap, newest first, and signs with it until it expires', () => {
    const s = subscription();
    s.rotateSecret('whsec_1', 60, at(0));
    s.rotateSecret('whsec_2', 120, at(10));
    expect(s.signingSecret).toBe('whsec_2');
    expect(s.previousSecrets).toEqual([{ secret: 'whsec_1', expiresAt: at(130) }, { secret: 'whsec_0', expiresAt: at(60) }]);
    expect(secretsStillValid(s.previousSecrets, at(59))).toEqual(['whsec_1', 'whsec_0']);
    expect(secretsStillValid(s.previousSecrets, at(60))).toEqual(['whsec_1']);
    expect(secretsStillValid(s.previousSecrets, at(130))).toEqual([]);
  });

  it('with an overlap of 0 ends the old secret at once, and drops expired ones at the next rotation', () => {
    const s = subscription();
    s.rotateSecret('whsec_1', 0, at(0));
    expect(s.previousSecrets).toEqual([]);
    s.rotateSecret('whsec_2', 5, at(1));
    s.rotateSecret('whsec_3', 5, at(100));
    expect(s.previousSecrets.map((old) => old.secret)).toEqual(['whsec_2']);
  });

  it('with an overlap of 0 after earlier rotations ends every old secret, not only the current one (a leak)', () => {
    const s = subscription();
    s.rotateSecret('whsec_1', 3600, at(0));
    s.rotateSecret('whsec_2', 3600, at(1));
    s.rotateSecret('whsec_3', 0, at(2));
    expect(s.signingSecret).toBe('whsec_3');
    expect(s.previousSecrets).toEqual([]);
    expect(secretsStillValid(s.previousSecrets, at(2))).toEqual([]);
  });

  it('drops expired old secrets at every write of the subscription (a PATCH, a delete)', () => {
    const s = subscription();
    s.rotateSecret('whsec_1', 60, at(0));
    s.rotateSecret('whsec_2', 3600, at(1));
    s.update({ active: false }, at(30));
    expect(s.previousSecrets.map((old) => old.secret)).toEqual(['whsec_1', 'whsec_0']);
    s.update({}, at(61));
    expect(s.previousSecrets.map((old) => old.secret)).toEqual(['whsec_1']);
    s.delete(at(3601));
    expect(s.previousSecrets).toEqual([]);
  });

  it(`keeps at most ${MAX_PREVIOUS_SECRETS} old secrets`, () => {
    const s = subscription();
    for (let i = 1; i <= 8; i++) s.rotateSecret(`whsec_${i}`, 3600, at(i));
    expect(s.previousSecrets.map((old) => old.secret)).toEqual(['whsec_7', 'whsec_6', 'whsec_5', 'whsec_4', 'whsec_3']);
  });

  it.each([-1, 604_801, 1.5, Number.NaN])('refuses an overlap of %p, naming expiresInSeconds, and changes nothing', (overlap) => {
    const s = subscription();
    expect(() => s.rotateSecret('whsec_1', overlap, at(0))).toThrow(InvalidValueError);
    expect(() => s.rotateSecret('whsec_1', overlap, at(0))).toThrow(/^expiresInSeconds /);
    expect(s.signingSecret).toBe('whsec_0');
  });
});
