import { describe, expect, it } from 'vitest';
import {
  dossierTransitionSchema,
  latestTodayOnEarth,
  transitionFactProblems,
  transitionFactWarnings,
} from './dossiers.ts';

const plan = { etd: '2026-03-20', eta: '2026-04-20', atd: null };
const noon = new Date('2026-03-03T12:00:00Z');

describe('facts of dossier status actions', () => {
  it('takes "today" as the latest date anywhere on Earth (UTC+14)', () => {
    expect(latestTodayOnEarth(new Date('2026-03-03T09:59:00Z'))).toBe('2026-03-03');
    expect(latestTodayOnEarth(new Date('2026-03-03T10:00:00Z'))).toBe('2026-03-04');
  });

  it('refuses a fact in the future and an arrival before the recorded departure', () => {
    expect(transitionFactProblems(plan, { atd: '2026-03-03' }, noon)).toEqual([]);
    expect(transitionFactProblems(plan, { atd: '2026-03-05' }, noon)).toEqual([
      { field: 'atd', message: 'The departure cannot be in the future' },
    ]);
    expect(transitionFactProblems({ ...plan, atd: '2026-03-02' }, { ata: '2026-03-01' }, noon)).toEqual([
      { field: 'ata', message: 'The arrival cannot be before the recorded departure' },
    ]);
    expect(transitionFactProblems({ ...plan, atd: '2026-03-02' }, { ata: '2026-03-02' }, noon)).toEqual([]);
  });

  it('warns when a fact is more than two days before the plan, never when late', () => {
    expect(transitionFactWarnings(plan, { atd: '2026-03-18' })).toEqual([]);
    expect(transitionFactWarnings(plan, { atd: '2026-03-17' })).toEqual([
      {
        field: 'atd',
        message: 'This departure is 3 days before the planned departure (ETD). Check the date.',
      },
    ]);
    expect(transitionFactWarnings(plan, { atd: '2026-04-30' })).toEqual([]);
    expect(transitionFactWarnings(plan, { ata: '2026-04-01' })).toEqual([
      { field: 'ata', message: 'This arrival is 19 days before the planned arrival (ETA). Check the date.' },
    ]);
    expect(transitionFactWarnings({ etd: null, eta: null, atd: null }, { atd: '2020-01-01' })).toEqual([]);
  });

  it('requires the fact of each target and refuses facts a target does not ask', () => {
    const issues = (body: unknown) =>
      dossierTransitionSchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];
    expect(issues({ to: 'in_transit', version: 1 })).toEqual([['atd', 'Enter the date it departed']]);
    expect(issues({ to: 'arrived', version: 1 })).toEqual([['ata', 'Enter the date it arrived']]);
    expect(issues({ to: 'booked', version: 1 })).toEqual([['handlerId', 'Choose who handles this dossier']]);
    expect(issues({ to: 'cleared', version: 1, atd: '2026-01-01' })).toEqual([
      ['atd', 'Not asked when moving to cleared; edit the dossier instead'],
    ]);
    expect(issues({ to: 'cancelled', version: 1 })).toEqual([]);
    expect(issues({ to: 'in_transit', version: 1, atd: '2026-01-01' })).toEqual([]);
  });
});
