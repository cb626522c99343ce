export * from './auth.ts';
export * from './constants.ts';
export * from './problem.ts';
export * from './health.ts';
