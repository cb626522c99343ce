import { createHash } from 'node:crypto';

/**
 * A number from 0 to 99 that depends only on the seed, the LRN and what is being decided: the same
 * declaration gets the same answer on every node and every run, and a test picks an outcome by its
 * percentage (0 never, 100 always) or by its seed.
 */
export function outcomeBucket(seed: string, lrn: string, purpose: 'control' | 'release'): number {
  const digest = createHash('sha256').update(`${seed}\u0000${lrn}\u0000${purpose}`).digest();
  return digest.readUInt32BE(0) % 100;
}

/** Whether an accepted declaration is selected for control (`controlPercent` of them). */
export function selectedForControl(seed: string, lrn: string, controlPercent: number): boolean {
  return outcomeBucket(seed, lrn, 'control') < controlPercent;
}

/** Whether a controlled declaration's goods are refused release (`notReleasedPercent` of the controlled). */
export function refusedRelease(seed: string, lrn: string, notReleasedPercent: number): boolean {
  return outcomeBucket(seed, lrn, 'release') < notReleasedPercent;
}
