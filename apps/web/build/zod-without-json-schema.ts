import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Classic zod's schemas module, the only one of zod's that reaches the JSON-schema code unasked. */
const CLASSIC_SCHEMAS = /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;
const JSON_SCHEMA_MODULES = new Set(['../core/json-schema-processors.js', '../core/to-json-schema.js']);
const STUB_PREFIX = '\0zod-json-schema-stub:';

/**
 * Leaves zod's JSON-schema generation (`toJSONSchema`, `~standard.jsonSchema`, about 17 KB, 4.5 KB
 * compressed) out of the web build (ADR 0023). Classic zod wires every schema type to it in the
 * schema's constructor (`inst._zod.processJSONSchema = … processors.stringProcessor(…)`), so the
 * bundler must keep it although the web never turns a schema into JSON Schema (the API's OpenAPI
 * document is built on the server). The two modules are replaced, for classic zod's schemas module
 * only, by stubs with the same export names (read from the real files, so a zod update that adds
 * one still builds): making the methods works, calling one throws. Build only: tests and the dev
 * server run the real zod.
 */
export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'fvg-zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !CLASSIC_SCHEMAS.test(importer) || !JSON_SCHEMA_MODULES.has(source)) return null;
      return STUB_PREFIX + path.resolve(path.dirname(importer), source);
    },
    async load(id) {
      if (!id.startsWith(STUB_PREFIX)) return null;
      const real = await readFile(id.slice(STUB_PREFIX.length), 'utf8');
      const names = [...real.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]);
      return [
        '// zod-without-json-schema: JSON Schema generation is not part of the web build (ADR 0023).',
        "const unavailable = () => { throw new Error('JSON Schema generation is not bundled in the web app'); };",
        'const stub = () => unavailable;',
        ...names.map((name) => `export const ${name} = stub;`),
      ].join('\n');
    },
  };
}
