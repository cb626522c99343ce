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

  it('puts those first, then takes the projects in turns, each in the order it had', () => {
    const files = ['api:a', 'api:slow', 'api:b', 'api:c', 'contracts:x', 'web:1', 'web:slow', 'web:2'];
    const project = (f: string) => f.split(':')[0] ?? '';
    const order = interleave(files, project, (f) => f.endsWith('slow'));
    expect(order).toEqual([
      'api:slow',
      'web:slow',
      'api:a',
      'contracts:x',
      'web:1',
      'api:b',
      'web:2',
      'api:c',
    ]);
  });
});
