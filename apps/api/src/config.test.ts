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

describe('METRICS_TOKEN / METRICS_ALLOW', () => {
  it('are off by default', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, metricsAllow: [] });
  });

  it('take addresses and CIDRs of both families, and refuse anything else with the variable named', () => {
    expect(loadConfig({ METRICS_ALLOW: '10.0.5.0/24, 127.0.0.1,fd00::/8' }).metricsAllow).toEqual([
      '10.0.5.0/24',
      '127.0.0.1',
      'fd00::/8',
    ]);
    for (const bad of ['everyone', '10.0.0.0/33', '10.0.0.0/8/1', '300.1.1.1', 'fd00::/129'])
      expect(() => loadConfig({ METRICS_ALLOW: bad }), bad).toThrow(/METRICS_ALLOW/);
  });

  it('refuse a guessable scrape token', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: 'sixteen-chars-ok' }).metricsToken).toBe('sixteen-chars-ok');
  });
});

describe('SANDBOX_*', () => {
  it('has defaults that let the demo move on its own', () => {
    const { sandbox } = loadConfig({});
    expect(sandbox).toEqual({
      delays: { accept: 2, control: 5, release: 5, exit: 20, arrival: 20, discharge: 10, answer: 2 },
      controlPercent: 20,
      notReleasedPercent: 25,
      seed: 'fvg',
    });
  });

  it('takes named delays over the defaults, zero included, and the shares and seed', () => {
    const { sandbox } = loadConfig({
      SANDBOX_DELAYS: 'accept=0, exit=3',
      SANDBOX_CONTROL_PERCENT: '100',
      SANDBOX_NOT_RELEASED_PERCENT: '0',
      SANDBOX_SEED: 'tests',
    });
    expect(sandbox.delays).toMatchObject({ accept: 0, exit: 3, control: 5 });
    expect(sandbox.controlPercent).toBe(100);
    expect(sandbox.notReleasedPercent).toBe(0);
    expect(sandbox.seed).toBe('tests');
  });

  it('refuses an unknown step, a bad number and a share above 100, naming the variable', () => {
    expect(() => loadConfig({ SANDBOX_DELAYS: 'lunch=5' })).toThrow(/SANDBOX_DELAYS.*lunch=5/);
    expect(() => loadConfig({ SANDBOX_DELAYS: 'accept=soon' })).toThrow(/SANDBOX_DELAYS/);
    expect(() => loadConfig({ SANDBOX_DELAYS: 'accept' })).toThrow(/SANDBOX_DELAYS/);
    expect(() => loadConfig({ SANDBOX_CONTROL_PERCENT: '101' })).toThrow(/SANDBOX_CONTROL_PERCENT/);
    expect(() => loadConfig({ SANDBOX_NOT_RELEASED_PERCENT: '-1' })).toThrow(/SANDBOX_NOT_RELEASED_PERCENT/);
  });
});

describe('HOST (ADR 0051)', () => {
  it('listens on this machine only unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ HOST: '' }).host).toBe('localhost');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    // Not opened to the network by SEED_DEMO=false either: an earlier seed's sign-ins may still be there.
    expect(loadConfig({ SEED_DEMO: 'false' }).host).toBe('localhost');
  });
});

describe('BACKUP_*', () => {
  it('backs up nightly into DATA_DIR/backups and keeps 14 by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/fvg' }).backup).toEqual({
      dir: '/srv/fvg/backups',
      cron: '0 2 * * *',
      keep: 14,
    });
  });

  it('takes a folder, a schedule or off, and a count; refuses a malformed schedule, naming the variable', () => {
    expect(loadConfig({ BACKUP_DIR: '/mnt/b', BACKUP_CRON: '30 1 * * 0', BACKUP_KEEP: '3' }).backup).toEqual({
      dir: '/mnt/b',
      cron: '30 1 * * 0',
      keep: 3,
    });
    expect(loadConfig({ BACKUP_CRON: 'off' }).backup.cron).toBeUndefined();
    expect(() => loadConfig({ BACKUP_CRON: 'nightly' })).toThrow(/BACKUP_CRON/);
    expect(() => loadConfig({ BACKUP_KEEP: 'all' })).toThrow(/BACKUP_KEEP/);
  });
});
