import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and the pages under docs/ stay true by the same rule (issue 25 item 4): every variable
 * config.ts reads has its row in docs/configuration.md, and every link from README.md or a docs/ page
 * to a local file — and to a heading in it — resolves. The README itself stays short.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return markdownFiles(rel);
    return name.endsWith('.md') ? [rel] : [];
  });
}
const pages = ['README.md', ...markdownFiles('docs')];

/** The page without fenced code blocks (no headings there) and, for links, without inline code either. */
const unfenced = (markdown: string) => markdown.replace(/^ {0,3}```[\s\S]*?^ {0,3}```/gm, '');
const prose = (markdown: string) => unfenced(markdown).replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading = ''] of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const repeat = seen.get(slug) ?? 0;
    seen.set(slug, repeat + 1);
    found.add(repeat ? `${slug}-${repeat}` : slug);
  }
  return found;
}

/** The targets of a page's links and images that point into the repository (no scheme, no mail). */
const localLinks = (markdown: string) =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

describe('the documentation', () => {
  it('lists every variable config.ts reads in docs/configuration.md, each in its own row', () => {
    const variables = new Set(
      [...read('apps/api/src/config.ts').matchAll(/env\.([A-Z0-9_]+)/g)].map((m) => m[1]),
    );
    expect(variables.size).toBeGreaterThan(30);
    const configuration = read('docs/configuration.md');
    const missing = [...variables].filter((name) => !configuration.includes(`\n| \`${name}\` |`));
    expect(missing).toEqual([]);
  });

  it('links only to files and headings that exist, from the README and every page under docs/', () => {
    expect(pages).toEqual(
      expect.arrayContaining(['docs/configuration.md', 'docs/operations.md', 'docs/status.md']),
    );
    const broken: string[] = [];
    for (const page of pages) {
      for (const link of localLinks(read(page))) {
        const [file = '', anchor] = link.split('#');
        const target = file ? path.join(path.dirname(page), decodeURI(file)) : page;
        if (!existsSync(path.join(root, target))) broken.push(`${page}: ${link} (no ${target})`);
        else if (anchor && target.endsWith('.md') && !anchors(read(target)).has(anchor))
          broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps the README to a screen or two, with its screenshot at 1440×900', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(90);
    const image = readme.match(/!\[[^\]]*\]\(([^)]+\.png)\)/)?.[1] ?? '';
    const png = readFileSync(path.join(root, image));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1440, 900]); // IHDR width, height
    expect(png.length).toBeLessThan(200_000);
  });

  it('reads its anchors as GitHub writes them', () => {
    const page =
      '# FVG — the back office\n## Watching it: probes, metrics (ADR 0055)\n## Web: `npm run bench:web`\n## Notes\n## Notes\n';
    expect([...anchors(page)]).toEqual([
      'fvg--the-back-office',
      'watching-it-probes-metrics-adr-0055',
      'web-npm-run-benchweb',
      'notes',
      'notes-1',
    ]);
  });
});
