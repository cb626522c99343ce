import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interleave, startsProcesses } from './sequencer.ts';

const api = path.resolve(import.meta.dirname, '../../apps/api/src');

describe('the order test files start in', () => {
  it('knows the files that start processes', () => {
    expect(startsProcesses(path.join(api, 'crash-restart.test.ts'))).toBe(true);
    expect(startsProcesses(path.join(api, 'backup/backup.test.ts'))).toBe(true);
    expect(startsProcesses(path.join(api, 'features/dossiers/dossiers.test.ts'))).toBe(false);
  });

  it('takes the projects in turns, each in its order, and spreads the process files over the first two thirds', () => {
    const files = [
      'api:a',
      'api:slow1',
      'api:b',
      'api:c',
      'contracts:x',
      'web:1',
      'web:slow2',
      'web:2',
      'web:3',
    ];
    const project = (f: string) => f.split(':')[0] ?? '';
    const order = interleave(files, project, (f) => f.includes('slow'));
    expect(order).toEqual([
      'api:slow1',
      'api:a',
      'contracts:x',
      'web:slow2',
      'web:1',
      'api:b',
      'web:2',
      'api:c',
      'web:3',
    ]);
  });

  it('keeps every file once, and a process file never last, also when they outnumber the others', () => {
    const files = ['p1', 'p2', 'p3', 'a'];
    const order = interleave(
      files,
      () => 'api',
      (f) => f.startsWith('p'),
    );
    expect([...order].sort()).toEqual([...files].sort());
    expect(order.at(-1)).toBe('a');
  });
});
