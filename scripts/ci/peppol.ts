import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `node scripts/ci/peppol.ts DIR`: the UBL the API tests wrote to test-results/ubl (the seven print
 * scenarios of ubl.test.ts and the invoices area's issued invoices) must pass the official Peppol BIS
 * Billing 3.0 validation, `DIR/validate.mjs`: UBL 2.1 XSD, EN 16931 and Peppol rules (ADR 0030).
 */
const validator = path.resolve(process.argv[2] ?? '');
const ublDir = path.resolve(import.meta.dirname, '../../test-results/ubl');

if (!existsSync(path.join(validator, 'validate.mjs'))) {
  console.error(
    `The Peppol validator is missing: expected ${validator}/validate.mjs (shared/ next to the checkout)`,
  );
  process.exit(1);
}
const count = existsSync(ublDir) ? readdirSync(ublDir).filter((f) => f.endsWith('.xml')).length : 0;
if (count < 7) {
  console.error(
    `Expected at least 7 UBL files in ${ublDir} (the seven scenarios of ubl.test.ts), found ${count}`,
  );
  process.exit(1);
}
const run = (command: string, args: string[]) =>
  spawnSync(command, args, { cwd: validator, stdio: 'inherit' }).status ?? 1;
if (!existsSync(path.join(validator, 'node_modules'))) {
  const installed = run('npm', ['install', '--no-audit', '--no-fund']);
  if (installed !== 0) process.exit(installed);
}
process.exit(run(process.execPath, ['validate.mjs', ublDir]));
