import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order Vitest starts test files in. Vitest's own order (a cached duration, else the larger file
 * first) runs the projects one after another: every API file, then every web file. On two cores that
 * leaves the CPU idle while API files wait for PostgreSQL and the processes they start, then
 * overloaded by the web files' jsdom work. So:
 *  1. first the files that start processes (`node:child_process`: the app, the CLI, PostgreSQL
 *     crashes): they take the longest, mostly waiting, and must not be the last ones running;
 *  2. then the projects' files in turns (one API file, one web file, …), each project in Vitest's order.
 */
export function startsProcesses(file: string): boolean {
  return /from\s+['"]node:child_process['"]/.test(readFileSync(file, 'utf8'));
}

export function interleave<T>(files: T[], project: (file: T) => string, first: (file: T) => boolean): T[] {
  const lead = files.filter(first);
  const queues = new Map<string, T[]>();
  for (const file of files) {
    if (first(file)) continue;
    const name = project(file);
    queues.set(name, [...(queues.get(name) ?? []), file]);
  }
  const turns: T[] = [];
  while ([...queues.values()].some((q) => q.length))
    for (const queue of queues.values()) {
      const next = queue.shift();
      if (next !== undefined) turns.push(next);
    }
  return [...lead, ...turns];
}

export default class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return interleave(
      ordered,
      (spec) => spec.project.name,
      (spec) => startsProcesses(spec.moduleId),
    );
  }
}
