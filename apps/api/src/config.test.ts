import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('TRUST_PROXY', () => {
  const trust = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default, the nearest one for true, n hops for a number', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
  });

  it('takes proxy addresses and CIDRs, and refuses anything else with the variable named', () => {
    expect(trust('10.0.0.0/8, 192.168.1.10,::1')).toEqual(['10.0.0.0/8', '192.168.1.10', '::1']);
    expect(() => trust('everyone')).toThrow(/TRUST_PROXY/);
  });
});
