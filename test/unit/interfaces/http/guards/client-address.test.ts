import { clientAddressKey, expandIPv6 } from '../../../../../src/interfaces/http/guards/client-address';

describe('the address failed authentications are counted under', () => {
  it('is the IPv4 address itself, also when a dual-stack socket reports it IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 for IPv6: every address of one host-sized prefix shares one budget', () => {
    const a = clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002::1')).toBe(a);
    expect(clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(a);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(a);
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('is one shared "unknown" for what is not an address', () => {
    expect(clientAddressKey(undefined)).toBe('unknown');
    expect(clientAddressKey('')).toBe('unknown');
    expect(clientAddressKey('not-an-ip')).toBe('unknown');
  });

  it('expands every IPv6 spelling to eight groups', () => {
    expect(expandIPv6('::')).toEqual(['0', '0', '0', '0', '0', '0', '0', '0']);
    expect(expandIPv6('1::')).toEqual(['1', '0', '0', '0', '0', '0', '0', '0']);
    expect(expandIPv6('::ffff:1.2.3.4')).toEqual(['0', '0', '0', '0', '0', 'ffff', '102', '304']);
    expect(expandIPv6('2001:DB8::8:800:200C:417A')).toEqual(['2001', 'db8', '0', '0', '8', '800', '200c', '417a']);
  });
});
