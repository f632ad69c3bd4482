import { endpointKey } from '../../../../src/infrastructure/persistence/webhooks/endpoint-key';

describe('endpointKey (the unit of the worker caps)', () => {
  it('is one key per tenant and origin, whatever the path or query, and never holds the URL', () => {
    const key = endpointKey('tenant_a', 'https://hooks.example.test/a?token=secret');
    expect(endpointKey('tenant_a', 'https://hooks.example.test/b')).toBe(key);
    expect(endpointKey('tenant_b', 'https://hooks.example.test/a?token=secret')).not.toBe(key);
    expect(endpointKey('tenant_a', 'https://hooks.example.test:8443/a')).not.toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('gives the same keys once more URLs were seen than it keeps', () => {
    const first = endpointKey('tenant_a', 'https://one.example.test/x');
    for (let i = 0; i < 10_050; i++) endpointKey('tenant_many', `https://host${i}.example.test/`);
    expect(endpointKey('tenant_a', 'https://one.example.test/y')).toBe(first);
    expect(endpointKey('tenant_many', 'https://host7.example.test/other')).toBe(endpointKey('tenant_many', 'https://host7.example.test/'));
  });
});
