import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../../config.ts';
import {
  assertStorageKey,
  createFileStore,
  FileMissingError,
  FileTooLargeError,
  LocalDiskStore,
  newStorageKey,
  S3Store,
  s3ClientConfig,
} from './storage.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

async function* slowly(parts: Buffer[], onEach: (i: number) => Promise<void> = async () => {}) {
  for (let i = 0; i < parts.length; i++) {
    await onEach(i);
    yield parts[i] as Buffer;
  }
}

describe('storage keys', () => {
  it('are server-made and cannot leave the store', () => {
    expect(newStorageKey('dabc', new Date('2026-03-04T00:00:00Z'))).toMatch(
      /^dabc\/2026\/03\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    for (const bad of ['../x', 'a/../../b', '/etc/passwd', 'a//b', 'a/./b', 'a\\b', 'a b', '', 'a/b/']) {
      expect(() => assertStorageKey(bad), bad).toThrow(/Invalid storage key/);
    }
  });
});

describe('LocalDiskStore', () => {
  let root: string;
  let store: LocalDiskStore;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'fvg-store-'));
    store = new LocalDiskStore(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes, reads, lists and deletes; size and SHA-256 computed while streaming', async () => {
    const body = Buffer.from('hello documents');
    const key = newStorageKey('ns1');
    const put = await store.put(key, slowly([body.subarray(0, 5), body.subarray(5)]), { maxBytes: 100 });
    expect(put).toEqual({ size: body.length, sha256: sha(body) });
    expect(await store.exists(key)).toBe(true);
    expect(await text(await store.get(key))).toBe('hello documents');
    const listed = [];
    for await (const f of store.list('ns1/')) listed.push(f);
    expect(listed).toEqual([{ key, size: body.length, modifiedAt: expect.any(Date) }]);
    const none = [];
    for await (const f of store.list('ns2/')) none.push(f);
    expect(none).toEqual([]);
    await store.delete(key);
    await store.delete(key); // deleting twice is fine
    expect(await store.exists(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(FileMissingError);
  });

  it('shows a file under its key only once it is complete (temporary name, then rename)', async () => {
    const key = newStorageKey('ns3');
    const seen: { exists: boolean; partials: number }[] = [];
    await store.put(
      key,
      slowly([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')], async (i) => {
        if (i === 0) return;
        const dir = path.dirname(store.pathOf(key));
        const names = await readdir(dir);
        seen.push({
          exists: await store.exists(key),
          partials: names.filter((n) => n.endsWith('.partial')).length,
        });
      }),
      { maxBytes: 10 },
    );
    expect(seen).toEqual([
      { exists: false, partials: 1 },
      { exists: false, partials: 1 },
    ]);
    expect(await readdir(path.dirname(store.pathOf(key)))).toEqual([path.basename(store.pathOf(key))]);
  });

  it('stops at the limit while streaming and deletes the partial file', async () => {
    const key = newStorageKey('ns4');
    let pulled = 0;
    const source = (async function* () {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield Buffer.alloc(1000);
      }
    })();
    await expect(store.put(key, source, { maxBytes: 2500 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(pulled).toBe(3); // no byte read beyond the one chunk that crossed the limit
    expect(await store.exists(key)).toBe(false);
    expect(await readdir(path.dirname(store.pathOf(key)))).toEqual([]);
  });

  it('deletes the partial file when the source fails (the client went away)', async () => {
    const key = newStorageKey('ns5');
    const source = (async function* () {
      yield Buffer.from('some');
      throw new Error('aborted');
    })();
    await expect(store.put(key, source, { maxBytes: 100 })).rejects.toThrow('aborted');
    expect(await readdir(path.dirname(store.pathOf(key)))).toEqual([]);
  });

  it('is what the configuration gives without S3_BUCKET', () => {
    const s = createFileStore({ dataDir: root, s3: undefined });
    expect(s).toBeInstanceOf(LocalDiskStore);
    expect((s as LocalDiskStore).root).toBe(path.join(root, 'files'));
  });
});

/**
 * No S3 server runs in the tests: the real SDK client (signing, serialisation, lib-storage) talks to
 * a request handler that records each request and answers like S3 would.
 */
describe('S3Store (against a recording handler, not an S3 server)', () => {
  const config: S3Config = {
    bucket: 'fvg-docs',
    endpoint: 'http://minio.test:9000',
    region: 'eu-central-1',
    accessKeyId: 'AKIATEST',
    secretAccessKey: 'secret',
    forcePathStyle: true,
  };
  type Seen = {
    method: string;
    path: string;
    query: Record<string, unknown>;
    body: Buffer;
    headers: Record<string, string>;
  };
  const seen: Seen[] = [];
  const objects = new Map<string, Buffer>();

  async function bodyOf(b: unknown): Promise<Buffer> {
    if (b === undefined || b === null) return Buffer.alloc(0);
    if (typeof b === 'string') return Buffer.from(b);
    if (b instanceof Uint8Array) return Buffer.from(b);
    const chunks: Buffer[] = [];
    for await (const c of b as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c));
    return Buffer.concat(chunks);
  }
  const reply = (statusCode: number, body = '', headers: Record<string, string> = {}) => ({
    response: { statusCode, headers, body: Readable.from([Buffer.from(body)]) },
  });
  const handler = {
    async handle(request: {
      method: string;
      path: string;
      query?: Record<string, unknown>;
      headers: Record<string, string>;
      body?: unknown;
    }) {
      const body = await bodyOf(request.body);
      seen.push({
        method: request.method,
        path: request.path,
        query: request.query ?? {},
        body,
        headers: request.headers,
      });
      const key = decodeURIComponent(request.path.replace(/^\/fvg-docs\/?/, ''));
      if (request.method === 'PUT') {
        objects.set(key, body);
        return reply(200, '', { etag: '"e"' });
      }
      if (request.method === 'GET' && key === '') {
        const items = [...objects.keys()]
          .filter((k) => k.startsWith(String(request.query?.prefix ?? '')))
          .map(
            (k) =>
              `<Contents><Key>${k}</Key><Size>${objects.get(k)?.length}</Size><LastModified>2026-01-02T03:04:05.000Z</LastModified></Contents>`,
          );
        return reply(
          200,
          `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>fvg-docs</Name><IsTruncated>false</IsTruncated>${items.join('')}</ListBucketResult>`,
          { 'content-type': 'application/xml' },
        );
      }
      const found = objects.get(key);
      if (request.method === 'GET' || request.method === 'HEAD') {
        if (!found)
          return reply(
            404,
            request.method === 'HEAD'
              ? ''
              : '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>',
            { 'content-type': 'application/xml' },
          );
        return reply(200, request.method === 'HEAD' ? '' : found.toString(), {
          'content-length': String(found.length),
        });
      }
      if (request.method === 'DELETE') {
        objects.delete(key);
        return reply(204);
      }
      return reply(400);
    },
  };
  const store = new S3Store(
    config,
    new S3Client({ ...s3ClientConfig(config), requestHandler: handler as never }),
  );

  it('builds the client options from the S3_* settings', () => {
    expect(s3ClientConfig(config)).toMatchObject({
      region: 'eu-central-1',
      endpoint: 'http://minio.test:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIATEST', secretAccessKey: 'secret' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    expect(s3ClientConfig({ ...config, accessKeyId: undefined, endpoint: undefined })).not.toHaveProperty(
      'credentials',
    );
    expect(createFileStore({ dataDir: '/x', s3: config })).toBeInstanceOf(S3Store);
    expect(store.params('ns/2026/01/abc')).toEqual({ Bucket: 'fvg-docs', Key: 'ns/2026/01/abc' });
    expect(() => store.params('../abc')).toThrow(/Invalid storage key/);
  });

  it('puts (streamed through lib-storage), gets, heads, lists and deletes with path-style signed requests', async () => {
    const key = newStorageKey('nss3', new Date('2026-01-15T00:00:00Z'));
    const body = Buffer.from('%PDF-1.4 s3');
    const put = await store.put(key, slowly([body.subarray(0, 4), body.subarray(4)]), { maxBytes: 100 });
    expect(put).toEqual({ size: body.length, sha256: sha(body) });
    const putRequest = seen.find((s) => s.method === 'PUT');
    expect(putRequest?.path).toBe(`/fvg-docs/${key}`);
    expect(putRequest?.body.equals(body)).toBe(true);
    expect(putRequest?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIATEST\/\d{8}\/eu-central-1\/s3\//,
    );
    expect(putRequest?.headers.host).toBe('minio.test:9000');

    expect(await store.exists(key)).toBe(true);
    expect(await text(await store.get(key))).toBe('%PDF-1.4 s3');
    const listed = [];
    for await (const f of store.list('nss3/')) listed.push(f);
    expect(listed).toEqual([{ key, size: body.length, modifiedAt: new Date('2026-01-02T03:04:05.000Z') }]);
    expect(seen.find((s) => s.method === 'GET' && s.query['list-type'] === '2')?.query.prefix).toBe('nss3/');
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(FileMissingError);
  });

  it('reports an upload over the limit as such and leaves no object', async () => {
    const key = newStorageKey('nss3');
    await expect(
      store.put(key, slowly([Buffer.alloc(60), Buffer.alloc(60)]), { maxBytes: 100 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(objects.has(key)).toBe(false);
  });
});
