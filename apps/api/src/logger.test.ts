import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { type LogOutput, loggerOptions, RequestLog, redactUrl } from './logger.ts';
import { createTestDatabase, type TestDatabase, testConfig } from './test/helpers.ts';

/** A stand-in for stdout: a terminal (isTTY) or a pipe, keeping what was written. */
function output(isTTY: boolean) {
  const chunks: string[] = [];
  const out: LogOutput = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes are taken out
  const text = () => chunks.join('').replace(/\u001b\[[0-9;]*m/g, '');
  return { out, text, lines: () => text().split('\n').filter(Boolean) };
}

describe('redactUrl', () => {
  it('hides access and reset tokens in query strings and keeps the rest', () => {
    expect(redactUrl('/api/chat?id=abc&access_token=eyJ.secret.sig')).toBe(
      '/api/chat?id=abc&access_token=[redacted]',
    );
    expect(redactUrl('/guest/password/reset?token=s3cret#x')).toBe(
      '/guest/password/reset?token=[redacted]#x',
    );
    expect(redactUrl('/api/dossiers?page=2')).toBe('/api/dossiers?page=2');
  });
});

describe('log output', () => {
  it('prints readable lines on a terminal', async () => {
    const { out, lines } = output(true);
    const app = Fastify({ logger: loggerOptions('info', out) });
    app.log.info({ userId: 'u-1' }, 'password reset link issued');
    await app.close();
    const [line] = lines();
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: password reset link issued \{"userId":"u-1"\}$/);
    expect(() => JSON.parse(line as string)).toThrow();
  });

  it('writes one JSON object a line when the output is not a terminal', async () => {
    const { out, lines } = output(false);
    const app = Fastify({ logger: loggerOptions('info', out) });
    app.log.info({ userId: 'u-1' }, 'password reset link issued');
    await app.close();
    expect(lines().map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 30, msg: 'password reset link issued', userId: 'u-1' }),
    ]);
  });
});

describe('request lines', () => {
  async function serve(level: string) {
    const log = output(false);
    const app = Fastify({ logger: loggerOptions(level, log.out), logController: new RequestLog() });
    app.get('/ping', () => ({ ok: true }));
    await app.inject('/ping?token=s3cret');
    await app.close();
    return log.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('are not written at info', async () => {
    expect(await serve('info')).toEqual([]);
  });

  it('are one debug line per request with method, url (secrets redacted), status and duration', async () => {
    const records = (await serve('debug')).filter((r) => r.msg !== 'incoming request');
    expect(records).toEqual([
      expect.objectContaining({
        level: 20,
        msg: 'request completed',
        method: 'GET',
        url: '/ping?token=[redacted]',
        statusCode: 200,
        ms: expect.any(Number),
      }),
    ]);
  });
});

describe('the app logger', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('follows LOG_LEVEL: request lines only at debug', async () => {
    const seen: Record<string, string[]> = {};
    for (const level of ['info', 'debug']) {
      const log = output(false);
      const app = await buildApp({ config: testConfig({ logLevel: level }), db: db.db, out: log.out });
      await app.inject('/api/health');
      await app.close();
      seen[level] = log.lines().map((l) => (JSON.parse(l) as { msg: string }).msg);
    }
    expect(seen.info).not.toContain('request completed');
    expect(seen.debug).toContain('request completed');
  });
});
