import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, open, opendir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config, S3Config } from '../../config.ts';

export interface PutResult {
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where document bytes live. Keys are made by the server (`newStorageKey`), never from a user's file
 * name. `put` streams: it never holds a whole file, counts and hashes as bytes pass, and stops at
 * `maxBytes` leaving nothing behind; a key appears only once its file is complete.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  put(
    key: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    opts: { maxBytes: number },
  ): Promise<PutResult>;
  /** The bytes; throws `FileMissingError` when there is no such file. */
  get(key: string): Promise<Readable>;
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every file whose key starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<StoredFile>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

export class FileMissingError extends Error {
  constructor(readonly key: string) {
    super(`No stored file ${key}`);
  }
}

const SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;

/** Keys are relative, `/`-separated, without empty, `.` or `..` segments: no way out of the store's root. */
export function assertStorageKey(key: string): void {
  const segments = key.split('/');
  if (
    key.length > 500 ||
    !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..') ||
    segments.length > 10
  ) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** `<namespace>/<yyyy>/<mm>/<uuid>`: spread over folders by month, unique, and no part of it from the user. */
export function newStorageKey(namespace: string, now = new Date()): string {
  const key = `${namespace}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
  assertStorageKey(key);
  return key;
}

/** Counts, hashes and enforces the limit on bytes as they pass. */
async function* measured(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number,
  into: { size: number; hash: ReturnType<typeof createHash> },
): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    into.size += buf.length;
    if (into.size > maxBytes) throw new FileTooLargeError(maxBytes);
    into.hash.update(buf);
    yield buf;
  }
}

const PARTIAL = /\.partial$/;

/**
 * Files under a folder (DATA_DIR/files). A file is written to a temporary name next to its final
 * one, flushed to disk, then renamed (atomic on one file system) and the folder flushed: after a
 * crash there is either the whole file under its key or a `.partial` leftover the sweep removes.
 */
export class LocalDiskStore implements FileStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return file;
  }

  async put(
    key: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    opts: { maxBytes: number },
  ): Promise<PutResult> {
    const file = this.pathOf(key);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.partial`);
    const fh = await open(tmp, 'wx', 0o640);
    let isOpen = true;
    const m = { size: 0, hash: createHash('sha256') };
    try {
      for await (const buf of measured(source, opts.maxBytes, m)) {
        let written = 0;
        while (written < buf.length) written += (await fh.write(buf, written)).bytesWritten;
      }
      await fh.sync();
      await fh.close();
      isOpen = false;
      await rename(tmp, file);
      await syncDir(dir);
      return { size: m.size, sha256: m.hash.digest('hex') };
    } catch (e) {
      if (isOpen) await fh.close().catch(() => {});
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Readable> {
    try {
      const fh = await open(this.pathOf(key), 'r');
      return fh.createReadStream({ autoClose: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new FileMissingError(key);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  /** Walks the folders under the prefix lazily (constant memory for millions of files); `.partial` leftovers included. */
  async *list(prefix: string): AsyncIterable<StoredFile> {
    const lastSlash = prefix.lastIndexOf('/');
    const dirKey = lastSlash >= 0 ? prefix.slice(0, lastSlash) : '';
    const start = dirKey ? this.pathOf(dirKey) : this.root;
    const walk = async function* (dir: string, keyPrefix: string): AsyncGenerator<StoredFile> {
      let handle: Awaited<ReturnType<typeof opendir>>;
      try {
        handle = await opendir(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for await (const entry of handle) {
        const key = keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(full, key);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          try {
            const s = await stat(full);
            yield { key, size: s.size, modifiedAt: s.mtime };
          } catch {
            // removed while listing
          }
        }
      }
    };
    yield* walk(start, dirKey);
  }
}

/** A `.partial` leftover of an interrupted write (local store). */
export function isPartialKey(key: string): boolean {
  return PARTIAL.test(key);
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch {
    // some file systems do not sync folders; the rename is still atomic
  } finally {
    await fh.close();
  }
}

/** The S3 client options from the S3_* settings (exported for tests: no S3 server runs in them). */
export function s3ClientConfig(s3: S3Config): S3ClientConfig {
  return {
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    ...(s3.accessKeyId && s3.secretAccessKey
      ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
      : {}),
    // S3-compatible stores (MinIO, Ceph, R2, …) do not all take the SDK's default CRC trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
}

/**
 * An S3-compatible bucket (AWS SDK v3). Uploads stream through `Upload` (lib-storage): one PutObject
 * for small files, a multipart upload (5 MB parts, two in flight) for large ones, aborted on error so
 * no partial object remains. An object appears under its key only when the upload completes.
 */
export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(s3: S3Config, client?: S3Client) {
    this.bucket = s3.bucket;
    this.client = client ?? new S3Client(s3ClientConfig(s3));
  }

  params(key: string): { Bucket: string; Key: string } {
    assertStorageKey(key);
    return { Bucket: this.bucket, Key: key };
  }

  async put(
    key: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    opts: { maxBytes: number },
  ): Promise<PutResult> {
    const m = { size: 0, hash: createHash('sha256') };
    let failure: unknown;
    const body = Readable.from(
      (async function* () {
        try {
          yield* measured(source, opts.maxBytes, m);
        } catch (e) {
          failure = e;
          throw e;
        }
      })(),
    );
    const upload = new Upload({
      client: this.client,
      params: { ...this.params(key), Body: body, ContentType: 'application/octet-stream' },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      body.destroy();
      await this.delete(key).catch(() => {});
      // The source's own error (too large, the client went away) is the one to report.
      throw failure ?? e;
    }
    return { size: m.size, sha256: m.hash.digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    try {
      const out = await this.client.send(new GetObjectCommand(this.params(key)));
      if (!out.Body) throw new FileMissingError(key);
      return out.Body as Readable;
    } catch (e) {
      if (isNotFound(e)) throw new FileMissingError(key);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand(this.params(key)));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand(this.params(key)));
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** S3 when S3_BUCKET is set, else the local folder DATA_DIR/files. */
export function createFileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  return config.s3 ? new S3Store(config.s3) : new LocalDiskStore(path.join(config.dataDir, 'files'));
}
