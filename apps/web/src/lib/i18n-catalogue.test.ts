import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Namespace, resources, t } from './i18n.ts';

/*
 * The catalogue and the code agree (ADR 0038), checked statically over apps/web/src:
 * - every key a translation function is called with exists in the English catalogue;
 * - every English key is used somewhere (no dead words for translators to translate);
 * - every call's key is a string literal, or a template whose `${…}` parts stand for a family of
 *   keys (`title.${name}`), so the scan sees every key the code can ask for.
 * A translation function is a binding of `useT('ns')` (its namespace; `useT()` is `common`) or the
 * `t` exported by lib/i18n.ts (namespace `common` unless the key says `ns:key`).
 */

const SRC = join(import.meta.dirname, '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function flatten(tree: unknown, prefix = ''): string[] {
  if (typeof tree === 'string') return [prefix];
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    flatten(value, prefix ? `${prefix}.${key}` : key),
  );
}

interface Use {
  file: string;
  ns: string;
  /** The literal key, or a RegExp for a template's family of keys. */
  key: string | RegExp;
  text: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The translation calls of one file, and the calls whose key the scan cannot read. */
function usesOf(file: string, code: string): { uses: Use[]; unreadable: string[] } {
  // A name may be bound in several components of one file (`const t = useT('shell')` here,
  // `useT('routes')` there): a call belongs to the nearest binding above it.
  const bindings = new Map<string, { at: number; ns: string }[]>();
  const bind = (name: string, at: number, ns: string) =>
    bindings.set(name, [...(bindings.get(name) ?? []), { at, ns }]);
  for (const m of code.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*useT\(\s*(?:'(\w+)')?\s*\)/g)) {
    bind(m[1] as string, m.index, m[2] ?? 'common');
  }
  const fromLayer = code.match(/import\s*\{([^}]*)\}\s*from\s*'[./]*(?:lib\/)?i18n\.ts'/);
  for (const part of fromLayer?.[1]?.split(',') ?? []) {
    const m = part.trim().match(/^t(?:\s+as\s+(\w+))?$/);
    if (m) bind(m[1] ?? 't', -1, 'common');
  }
  const uses: Use[] = [];
  const unreadable: string[] = [];
  for (const [name, bound] of bindings) {
    for (const m of code.matchAll(new RegExp(`(?<![\\w.])${name}\\(\\s*([^,)]*)`, 'g'))) {
      const ns = bound.filter((b) => b.at < m.index).at(-1)?.ns;
      if (ns === undefined) continue;
      const arg = (m[1] as string).trim();
      const literal = arg.match(/^'([^']*)'$/) ?? arg.match(/^"([^"]*)"$/);
      const template = arg.match(/^`([^`]*)`$/);
      const raw = literal?.[1] ?? template?.[1];
      if (raw === undefined) {
        unreadable.push(`${relative(SRC, file)}: ${name}(${arg}`);
        continue;
      }
      const [keyNs, key] = raw.includes(':') ? (raw.split(':', 2) as [string, string]) : [ns, raw];
      const dynamic = template && /\$\{/.test(key);
      uses.push({
        file: relative(SRC, file),
        ns: keyNs,
        key: dynamic
          ? new RegExp(
              `^${key
                .split(/\$\{[^}]*\}/)
                .map(escapeRegExp)
                .join('[^.]+')}$`,
            )
          : key,
        text: raw,
      });
    }
  }
  return { uses, unreadable };
}

const scanned = sourceFiles(SRC)
  .filter((file) => !file.endsWith(join('lib', 'i18n.ts')))
  .map((file) => usesOf(file, readFileSync(file, 'utf8')));
const uses = scanned.flatMap((s) => s.uses);
const english = resources.en as Record<Namespace, unknown>;
const catalogue = new Map(Object.entries(english).map(([ns, tree]) => [ns, new Set(flatten(tree))] as const));
/** A catalogue key without its plural suffix: what the code asks for (`rows` for `rows_one`). */
const base = (key: string) => key.replace(PLURAL, '');

describe('the English catalogue and the code', () => {
  it('finds the translation calls (the scan is not blind)', () => {
    expect(uses.length).toBeGreaterThan(100);
    expect(uses.some((u) => u.file.endsWith('screen-frame.tsx') && u.ns === 'routes')).toBe(true);
  });

  it('reads every key the code asks for', () => {
    expect(scanned.flatMap((s) => s.unreadable)).toEqual([]);
  });

  it('has every key the code uses', () => {
    const missing = uses.filter((use) => {
      const keys = [...(catalogue.get(use.ns) ?? [])].map(base);
      return typeof use.key === 'string'
        ? !keys.includes(use.key)
        : !keys.some((key) => (use.key as RegExp).test(key));
    });
    expect(missing.map((u) => `${u.file}: ${u.ns}:${u.text}`)).toEqual([]);
  });

  it('uses every key it has', () => {
    const unused = [...catalogue].flatMap(([ns, keys]) =>
      [...keys]
        .filter(
          (key) =>
            !uses.some(
              (use) =>
                use.ns === ns &&
                (typeof use.key === 'string' ? use.key === base(key) : use.key.test(base(key))),
            ),
        )
        .map((key) => `${ns}:${key}`),
    );
    expect(unused).toEqual([]);
  });

  it('gives every plural its `other` form', () => {
    const lonely = [...catalogue].flatMap(([ns, keys]) =>
      [...keys]
        .filter((key) => PLURAL.test(key) && !keys.has(`${base(key)}_other`))
        .map((key) => `${ns}:${key}`),
    );
    expect(lonely).toEqual([]);
  });

  it('picks the plural form by count', () => {
    expect(t('records:paging.perPage', { count: 50 })).toBe('50 per page');
    expect(t('records:form.fields', { count: 1 })).toBe('one field');
    expect(t('records:form.fields', { count: 3 })).toBe('3 fields');
  });

  it('lowercases a screen title inside an English sentence (the `lowercase` format)', () => {
    expect(t('records:record.loadFailed', { what: 'Sales invoice' })).toBe(
      'This sales invoice could not be loaded',
    );
  });

  it('has in every other language only keys that English has', () => {
    const extra = Object.entries(resources)
      .filter(([language]) => language !== 'en')
      .flatMap(([language, namespaces]) =>
        Object.entries(namespaces as Record<string, unknown>).flatMap(([ns, tree]) =>
          flatten(tree)
            .filter((key) => !catalogue.get(ns)?.has(key))
            .map((key) => `${language}/${ns}:${key}`),
        ),
      );
    expect(extra).toEqual([]);
  });
});
