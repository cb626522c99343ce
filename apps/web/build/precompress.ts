import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the server sends; source maps are left out (only a developer's tools fetch them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/i;
/** Below this the compressed form saves less than a packet's headers cost. */
const MIN_BYTES = 512;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip level 9) beside every compressible
 * file of the build, so the API serves them as they are (@fastify/static `preCompressed`) instead of
 * compressing on every request. node:zlib only: a few lines rather than a build dependency.
 * A compressed form that is not smaller than the original is not written (the original is served).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'fvg-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await listFiles(outDir);
      await Promise.all(files.filter((f) => COMPRESSIBLE.test(f)).map(compressFile));
    },
  };
}

export async function compressFile(file: string): Promise<void> {
  const { size } = await stat(file);
  if (size < MIN_BYTES) return;
  const source = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    br.length < source.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < source.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}
