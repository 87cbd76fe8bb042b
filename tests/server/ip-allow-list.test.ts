import { describe, expect, it } from 'vitest';
import { ipAllowed } from '../../server/services/users';

/** The per-user IP allow-list (users.ip_allow_list, a JSON array) as sign-in checks it against req.ip. */
const list = (...entries: unknown[]) => JSON.stringify(entries);

describe('ipAllowed (net.BlockList)', () => {
  it('no list allows every address (control for the refusals below)', () => {
    expect(ipAllowed(null, '203.0.113.7')).toBe(true);
    expect(ipAllowed(null, '2001:db8::1')).toBe(true);
  });

  it('IPv4: single addresses and CIDR blocks, also for an IPv4-mapped IPv6 peer', () => {
    const l = list('203.0.113.0/24', '198.51.100.7');
    expect(ipAllowed(l, '203.0.113.200')).toBe(true);
    expect(ipAllowed(l, '198.51.100.7')).toBe(true);
    expect(ipAllowed(l, '::ffff:203.0.113.5')).toBe(true); // how a dual-stack socket reports an IPv4 peer
    expect(ipAllowed(l, '::ffff:cb00:7105')).toBe(true); // the same, hex form
    expect(ipAllowed(l, '203.0.114.1')).toBe(false);
    expect(ipAllowed(l, '198.51.100.8')).toBe(false);
    expect(ipAllowed(l, '::ffff:203.0.114.1')).toBe(false);
    expect(ipAllowed(list('0.0.0.0/0'), '192.0.2.1')).toBe(true);
  });

  it('IPv6: CIDR blocks and single addresses in any text form', () => {
    const l = list('2001:db8:abcd::/48', '2001:db8::7');
    expect(ipAllowed(l, '2001:db8:abcd:12::1')).toBe(true);
    expect(ipAllowed(l, '2001:0db8:abcd:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(ipAllowed(l, '2001:db8:0:0:0:0:0:7')).toBe(true);
    expect(ipAllowed(l, '2001:db8:abce::1')).toBe(false);
    expect(ipAllowed(l, '2001:db8::8')).toBe(false);
    expect(ipAllowed(list('::1'), '::1')).toBe(true);
    expect(ipAllowed(list('::/0'), 'fe80::1')).toBe(true);
  });

  it('the families do not mix: an IPv6 block never admits an IPv4 peer and the other way round', () => {
    expect(ipAllowed(list('2001:db8::/32'), '32.1.13.184')).toBe(false); // 0x20010db8 as IPv4
    expect(ipAllowed(list('203.0.113.0/24'), '2001:db8::1')).toBe(false);
    expect(ipAllowed(list('0.0.0.0/0'), '2001:db8::1')).toBe(false);
  });

  it('a corrupt list allows nobody; a peer address that is not an IP matches nothing', () => {
    for (const bad of [
      'not json',
      '{"a":1}',
      list(42),
      list('10.0.0.0/33'),
      list('2001:db8::/129'),
      list('10.0.0.0/8/8'),
      list('example.com'),
      list('10.0.0.0/x'),
    ]) {
      expect(ipAllowed(bad, '10.0.0.1'), bad).toBe(false);
    }
    expect(ipAllowed(list('10.0.0.0/8'), '10.0.0.1')).toBe(true); // the same address under a good list
    expect(ipAllowed(list('10.0.0.0/8'), '')).toBe(false);
    expect(ipAllowed(list('10.0.0.0/8'), 'unknown')).toBe(false);
  });
});
