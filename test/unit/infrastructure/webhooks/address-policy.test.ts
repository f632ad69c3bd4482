import { forbiddenClass } from '../../../../src/infrastructure/webhooks/address-policy';

// Every class is judged from the address text alone: no connection is made anywhere.
describe('webhook target address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.100.100.200', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:0001::', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:ffff::808:808', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:10.1.2.3', 'private'],
    ['fec0::1', 'private'],
    ['feff:ffff::1', 'private'],
    ['192.88.99.1', 'reserved'],
    ['192.88.99.255', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:2:0:ffff::1', 'benchmarking'],
    ['2001:10::1', 'reserved'],
    ['2001:1f:ffff::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001:2f:ffff::1', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('forbids %s (%s)', (address, cls) => {
    expect(forbiddenClass(address)).toBe(cls);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1', '1.1.1.1', '::ffff:0:8.8.8.8', '64:ff9b::808:808', '64:ff9c:1::1',
    // Just outside the ranges above: 2001:1::/32, 2001:2:1::/48, 2001:30::/28, Google's 2001:4860::.
    '2001:1::1', '2001:2:1::1', '2001:30::1', '2001:4860:4860::8888', '192.88.98.255', '192.88.100.1'])(
    'allows the public address %s',
    (address) => {
      expect(forbiddenClass(address)).toBeNull();
    },
  );
});
