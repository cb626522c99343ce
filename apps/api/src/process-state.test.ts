import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module each test: `markStopping` cannot be undone. */
const fresh = async () => {
  vi.resetModules();
  return import('./process-state.ts');
};
const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('reportUnlessStopping: a background failure a stop explains is not reported', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports any other failure at once', async () => {
    const { reportUnlessStopping } = await fresh();
    const report = vi.fn();
    reportUnlessStopping(new Error('relation "x" does not exist'), report);
    expect(report).toHaveBeenCalledOnce();
  });

  it('reports a lost connection only when no stop follows within the settle time', async () => {
    const { reportUnlessStopping, STOP_SETTLE_MS } = await fresh();
    const report = vi.fn();
    reportUnlessStopping(reset, report);
    expect(report).not.toHaveBeenCalled();
    vi.advanceTimersByTime(STOP_SETTLE_MS);
    expect(report).toHaveBeenCalledOnce();
  });

  it('says nothing of a lost connection when the stop (SIGTERM reaching the app after PostgreSQL) follows', async () => {
    const { markStopping, reportUnlessStopping, STOP_SETTLE_MS } = await fresh();
    const report = vi.fn();
    reportUnlessStopping(reset, report);
    markStopping();
    vi.advanceTimersByTime(STOP_SETTLE_MS);
    expect(report).not.toHaveBeenCalled();
  });

  it('says nothing at all once the process stops', async () => {
    const { markStopping, reportUnlessStopping } = await fresh();
    const report = vi.fn();
    markStopping();
    reportUnlessStopping(new Error('anything'), report);
    vi.runAllTimers();
    expect(report).not.toHaveBeenCalled();
  });
});
