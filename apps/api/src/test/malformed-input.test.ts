/*
 * Malformed input, generated from the OpenAPI document: for every operation, starting from the valid
 * request of operations.ts (first checked to be accepted), ONE field at a time — each path parameter,
 * query parameter and body field, recursively into objects and arrays as the operation's JSON schema
 * (or, where the schema is open, the valid body) says — is replaced with each malformed class that
 * fits its type. Whatever the class: never a 5xx, always problem+json. For the classes that are bad
 * input by definition (NUL, lone surrogate, integers beyond their column or not integers, loose
 * coercion of numbers, impossible dates and times, forged cursors, over-long strings where a maximum is
 * declared, wrong JSON types, unknown body fields, broken multipart): a 400 whose `errors[].field`
 * names the field as a dotted path (`charges.0.amount`, `cursor`, `version`, `id`).
 *
 * Decided here: a malformed path id is a 400 on `id` like any other field (never a 404: the schema
 * declares what an id looks like, and a value that cannot be one is bad input, not a missing record).
 * A body that is not multipart at all may also answer 415 (Unsupported Media Type, the precise status).
 *
 * A new endpoint needs only its entry in operations.ts; the fields and classes follow from its schema.
 * A new class: add it to `classesFor` with the field types it applies to and whether it must be a 400.
 */
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './helpers.ts';
import { multipartForm } from './helpers.ts';
import {
  createWorld,
  OPERATIONS,
  type OpRequest,
  openApiOperations,
  type Role,
  type Sent,
  type World,
} from './operations.ts';

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

type Where = 'path' | 'query' | 'body' | 'form';
type Kind = 'string' | 'integer' | 'number' | 'decimal' | 'boolean' | 'array' | 'object' | 'unknown';
type Schema = Json & {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  enum?: unknown[];
};

interface Field {
  where: Where;
  path: (string | number)[];
  kind: Kind;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** A calendar date, or a timestamp. */
  temporal?: 'date' | 'datetime';
  /** The schema of an object field says which keys it takes (so an unknown key is refused). */
  closed?: boolean;
  /** A value that travels as a keyset cursor or a paging position. */
  cursor?: boolean;
}

/** A malformed value: the JSON value to put in a body, and the text (already %-encoded) for a URL. */
interface Malformed {
  name: string;
  value: unknown;
  /** For path and query: the percent-encoded text, when the value is not a plain string. */
  encoded?: string;
  /** A 400 naming the field is required (otherwise: no 5xx, problem+json). */
  must400: boolean;
}

const UUID = '0b5e3a52-7c1d-4e8f-9a6b-2c3d4e5f6a7b';
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const enc = (s: string) => encodeURIComponent(s);
/** A lone UTF-16 surrogate: in JSON as `\ud800`; in a URL as its (invalid) UTF-8 bytes. */
const SURROGATE_ENCODED = '%ED%A0%80';

function kindOf(s: Schema | undefined): { kind: Kind; schema: Schema | undefined } {
  if (!s) return { kind: 'unknown', schema: s };
  const variants = (s.anyOf ?? s.oneOf)?.filter((v) => v.type !== 'null');
  if (variants?.length) {
    const kinds = variants.map((v) => kindOf(v));
    if (kinds.length === 1) return kinds[0] as { kind: Kind; schema: Schema };
    const set = new Set(kinds.map((k) => k.kind));
    if (set.has('string') && (set.has('number') || set.has('integer')))
      return { kind: 'decimal', schema: variants[0] };
    return kinds.find((k) => k.kind === 'string') ?? (kinds[0] as { kind: Kind; schema: Schema });
  }
  const types = (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []).filter((t) => t !== 'null');
  if (types.includes('string') && (types.includes('number') || types.includes('integer')))
    return { kind: 'decimal', schema: s };
  const t = types[0];
  if (
    t === 'string' ||
    t === 'integer' ||
    t === 'number' ||
    t === 'boolean' ||
    t === 'array' ||
    t === 'object'
  )
    return { kind: t, schema: s };
  return { kind: 'unknown', schema: s };
}

function kindOfValue(v: unknown): Kind {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (Array.isArray(v)) return 'array';
  if (v && typeof v === 'object') return 'object';
  return 'unknown';
}

function temporalOf(name: string, s: Schema | undefined, value: unknown): Field['temporal'] {
  if (s?.format === 'date') return 'date';
  if (s?.format === 'date-time') return 'datetime';
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
    if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return 'datetime';
  }
  if (/^(etd|eta|atd|ata)$/.test(name) || /Date$/.test(name)) return 'date';
  if (/(At|DateTime|From|To)$/.test(name)) return 'datetime';
  return undefined;
}

/** The fields of a JSON body: the schema's properties, and the valid body's keys where the schema is open. */
function bodyFields(
  schema: Schema | undefined,
  value: unknown,
  path: (string | number)[],
  where: Where,
): Field[] {
  const out: Field[] = [];
  // A union (one event or an array of them): follow the variant the valid value takes.
  const variant =
    value !== undefined
      ? (schema?.anyOf ?? schema?.oneOf)?.find((v) => kindOf(v).kind === kindOfValue(value))
      : undefined;
  const { kind, schema: s } = kindOf(variant ?? schema);
  const effective: Kind = kind === 'unknown' ? kindOfValue(value) : kind;
  if (effective === 'object') {
    const props = s?.properties;
    const keys = new Set([...Object.keys(props ?? {}), ...Object.keys((value as Json | undefined) ?? {})]);
    if (path.length) out.push({ where, path, kind: 'object', closed: !!props });
    for (const k of keys) {
      const child = props?.[k];
      const childValue = (value as Json | undefined)?.[k];
      out.push(...bodyFields(child, childValue, [...path, k], where));
    }
    // The root object: its unknown keys are checked through a pseudo-field.
    if (!path.length) out.push({ where, path: [], kind: 'object', closed: !!props });
    return out;
  }
  if (effective === 'array') {
    out.push({ where, path, kind: 'array' });
    if (Array.isArray(value) && value.length)
      out.push(...bodyFields(s?.items, value[0], [...path, 0], where));
    return out;
  }
  const name = String(path.at(-1) ?? '');
  out.push({
    where,
    path,
    kind: effective,
    ...(s?.maxLength !== undefined ? { maxLength: s.maxLength } : {}),
    ...(s?.minimum !== undefined ? { minimum: s.minimum } : {}),
    ...(s?.maximum !== undefined ? { maximum: s.maximum } : {}),
    ...(effective === 'string' || effective === 'unknown' ? { temporal: temporalOf(name, s, value) } : {}),
  });
  return out;
}

/** Path and query parameters as fields. */
function parameterFields(op: Json): Field[] {
  const params = (op.parameters as { in: string; name: string; schema: Schema }[] | undefined) ?? [];
  return params
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => {
      const { kind, schema } = kindOf(p.schema);
      return {
        where: p.in as Where,
        path: [p.name],
        kind,
        ...(schema?.maxLength !== undefined ? { maxLength: schema.maxLength } : {}),
        ...(schema?.minimum !== undefined ? { minimum: schema.minimum } : {}),
        ...(schema?.maximum !== undefined ? { maximum: schema.maximum } : {}),
        temporal: kind === 'string' ? temporalOf(p.name, schema, undefined) : undefined,
        cursor: p.name === 'cursor' || p.name === 'before',
      };
    });
}

/** The malformed classes that fit a field. */
function classesFor(f: Field, valid: unknown): Malformed[] {
  const inUrl = f.where === 'path' || f.where === 'query';
  const out: Malformed[] = [];
  const add = (name: string, value: unknown, must400: boolean, encoded?: string) =>
    out.push({ name, value, must400, ...(encoded !== undefined ? { encoded } : {}) });
  const base = typeof valid === 'string' && valid ? valid : 'x';

  if (f.kind === 'object' || f.kind === 'array') {
    if (f.where === 'body' && f.path.length) {
      if (f.kind === 'array') add('string for array', 'x', true);
      if (f.kind === 'object' && f.path.length) add('string for object', 'x', true);
    }
    return out;
  }
  if (f.kind === 'string' || f.kind === 'unknown' || f.kind === 'decimal') {
    add(
      'NUL byte',
      `${base.slice(0, 1)}\u0000${base.slice(1)}`,
      true,
      enc(`${base.slice(0, 1)}\u0000${base.slice(1)}`),
    );
    // A URL cannot carry a lone surrogate, only invalid UTF-8 standing for one: the router refuses it
    // in a path (400); the query parser reads it as U+FFFD, which is harmless, so there it must only
    // not fail.
    add('lone surrogate', `${base}\ud800`, f.where !== 'query', `${enc(base)}${SURROGATE_ENCODED}`);
    if (f.maxLength !== undefined) add(`over maxLength ${f.maxLength}`, 'x'.repeat(f.maxLength + 1), true);
    else add('20 000 characters', 'x'.repeat(20_000), false);
    if (f.where === 'body' && f.kind === 'string') add('object for string', { a: 1 }, true);
  }
  if (f.kind === 'integer' || f.kind === 'number' || f.kind === 'decimal') {
    const numeric = f.kind !== 'decimal';
    if (numeric) {
      // Beyond an int4 column: a body value is stored; a query value (a page number) must be refused
      // when its schema bounds it below 2^31, and must never fail otherwise.
      add(
        '2^31',
        2 ** 31,
        f.where === 'body' || (f.maximum !== undefined && f.maximum < 2 ** 31),
        String(2 ** 31),
      );
      add('2^63', 2 ** 63, true, '9223372036854775808');
      add('-1', -1, f.minimum === undefined || f.minimum > -1, '-1');
      if (f.kind === 'integer') add('1.5', 1.5, true, '1.5');
    }
    add('"0x10"', '0x10', true);
    add('""', '', true);
    add('true', true, true, 'true');
    add('[7]', [7], true, enc('[7]'));
    if (!numeric) add('beyond the column (999 999 999 999 999.99)', '999999999999999.99', true);
  }
  if (f.kind === 'boolean' && f.where === 'body') {
    add('"true" for boolean', 'true', true);
    add('1 for boolean', 1, true);
  }
  if (f.temporal) {
    const time = f.temporal === 'datetime' ? 'T08:00:00Z' : '';
    for (const d of ['2026-02-30', '2025-02-29', '0000-01-01'])
      add(`impossible date ${d}`, `${d}${time}`, true);
    add('beyond PostgreSQL (+275760-09-13)', '+275760-09-13T00:00:00Z', true);
    add('time "1"', '1', true);
  }
  if (f.cursor) {
    add('forged cursor ["not-a-date", uuid]', b64(JSON.stringify(['not-a-date', UUID])), true);
    add('forged cursor ["x","y"]', b64(JSON.stringify(['x', 'y'])), true);
    add('forged cursor (random)', b64('\u0007\u0013random-bytes\u00ff'), true);
    add('forged cursor "not-a-date"', 'not-a-date', true);
  }
  if (inUrl)
    for (const c of out)
      c.encoded ??= typeof c.value === 'string' ? enc(c.value) : enc(JSON.stringify(c.value));
  return out;
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const copy: Json | unknown[] = Array.isArray(target) ? [...target] : { ...((target as Json) ?? {}) };
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  (copy as Record<string | number, unknown>)[head] = setAt(
    (target as Record<string | number, unknown>)?.[head],
    rest,
    value,
  );
  return copy;
}
const getAt = (v: unknown, path: (string | number)[]) =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown> | undefined)?.[k], v);

/** The URL of a request with one path or query value replaced by already-encoded text. */
function urlWith(template: string, req: OpRequest, f?: Field, encoded?: string): string {
  const name = f ? String(f.path[0]) : undefined;
  const path = template.replace(/\{(\w+)\}/g, (_, p: string) =>
    f?.where === 'path' && p === name ? (encoded as string) : encodeURIComponent(req.path?.[p] ?? ''),
  );
  const parts = Object.entries(req.query ?? {})
    .filter(([k]) => !(f?.where === 'query' && k === name))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (f?.where === 'query') parts.push(`${encodeURIComponent(name as string)}=${encoded}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

async function inject(
  method: string,
  url: string,
  auth: { authorization: string } | undefined,
  headers: Record<string, string>,
  payload?: string | Buffer,
): Promise<Sent> {
  const res = await w.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(auth ?? {}), ...headers },
    ...(payload !== undefined ? { payload } : {}),
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, text: res.body, json };
}

/** The body of a request as sent: JSON, multipart or raw text. */
function payloadOf(req: OpRequest): { headers: Record<string, string>; payload?: string | Buffer } {
  if (req.form) {
    const f = multipartForm(req.form.fields, req.form.files);
    return { headers: { 'content-type': f.contentType, ...(req.headers ?? {}) }, payload: f.payload };
  }
  if (req.raw)
    return {
      headers: { 'content-type': req.raw.contentType, ...(req.headers ?? {}) },
      payload: req.raw.payload,
    };
  if (req.body !== undefined)
    return {
      headers: { 'content-type': 'application/json', ...(req.headers ?? {}) },
      payload: JSON.stringify(req.body),
    };
  return { headers: { ...(req.headers ?? {}) } };
}

const fieldName = (f: Field) => f.path.join('.');
const errorFields = (res: Sent) =>
  (((res.json as Json | undefined)?.errors as { field?: string }[] | undefined) ?? []).map((e) => e.field);

/** What is wrong with an answer to a malformed request; empty when it holds. */
function verdict(res: Sent, must400: boolean, field: string | undefined): string | undefined {
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 160)}`;
  if (res.status < 400) return must400 ? `accepted (${res.status})` : undefined;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) return `${res.status} not problem+json (${type})`;
  if (!must400) return undefined;
  if (res.status !== 400) return `${res.status} instead of 400: ${res.text.slice(0, 160)}`;
  // A list parameter may name its item (`status.0`): that names the field too.
  if (field !== undefined && !errorFields(res).some((e) => e === field || e?.startsWith(`${field}.`)))
    return `400 without errors[].field "${field}" (got ${JSON.stringify(errorFields(res))})`;
  return undefined;
}

/** The first role whose call the registry says succeeds: the baseline's caller. */
function baselineRole(key: string): Role {
  const e = OPERATIONS[key]?.expect;
  const role = (['staff', 'admin', 'customerOwn', 'anonymous'] as const).find((r) => (e?.[r] ?? 500) < 300);
  if (!role) throw new Error(`${key}: no role succeeds in operations.ts`);
  return role;
}

/** Every field of an operation's request: its path and query parameters, its body's and form's fields. */
function operationFields(spec: Json, req: OpRequest): Field[] {
  const bodySchema = (spec.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
    ?.content?.['application/json']?.schema;
  return [
    ...parameterFields(spec),
    ...(req.body !== undefined ? bodyFields(bodySchema, req.body, [], 'body') : []),
    ...Object.keys(req.form?.fields ?? {}).map(
      (name): Field => ({ where: 'form', path: [name], kind: 'string' }),
    ),
  ];
}

describe('malformed input, one field at a time', () => {
  it('covers every operation of the OpenAPI document', () => {
    const keys = openApiOperations(w.app).map((o) => o.key);
    expect(
      keys.filter((k) => !OPERATIONS[k]).map((k) => `operation ${k} has no entry in operations.ts`),
    ).toEqual([]);
  });

  it('finds the fields of a request down to array items and open objects', async () => {
    const fieldsOf = async (key: string) => {
      const op = openApiOperations(w.app).find((o) => o.key === key);
      const req = await OPERATIONS[key]?.build({ world: w, owner: 'A', role: 'staff' });
      return operationFields(op?.op ?? {}, req ?? {}).map(
        (f) => `${f.where} ${fieldName(f)} ${f.kind}${f.temporal ? ` ${f.temporal}` : ''}`,
      );
    };
    expect(await fieldsOf('PUT /api/dossiers/{id}/charges')).toEqual(
      expect.arrayContaining([
        'path id string',
        'body version integer',
        'body charges array',
        'body charges.0.amount decimal',
        'body charges.0.currency string',
      ]),
    );
    expect(await fieldsOf('POST /api/dossiers')).toEqual(
      expect.arrayContaining([
        'body etd string date',
        'body packages integer',
        'body containers.0.seals.0 string',
      ]),
    );
    expect(await fieldsOf('POST /api/container-events')).toEqual(
      expect.arrayContaining([
        'body eventDateTime string datetime',
        'body transportCall.UNLocationCode string',
      ]),
    );
    expect(await fieldsOf('GET /api/dossiers')).toEqual(
      expect.arrayContaining(['query cursor string', 'query etdFrom string date']),
    );
    expect(await fieldsOf('POST /api/documents')).toEqual(expect.arrayContaining(['form recordId string']));
  });

  it.each(Object.keys(OPERATIONS))('%s', async (key) => {
    const op = openApiOperations(w.app).find((o) => o.key === key);
    expect(op, `${key} is not in the OpenAPI document`).toBeDefined();
    const { method, path, op: spec } = op as { method: string; path: string; op: Json };
    const role = baselineRole(key);
    const auth = w.authFor(role);
    const build = () => OPERATIONS[key]?.build({ world: w, owner: 'A', role }) as Promise<OpRequest>;

    let req = await build();
    // The baseline first: the valid request is accepted, so every refusal below is the field's doing.
    {
      const { headers, payload } = payloadOf(req);
      const ok = await inject(method, urlWith(path, req), auth, headers, payload);
      expect(ok.status, `baseline of ${key}: ${ok.text.slice(0, 300)}`).toBeLessThan(300);
      req = await build();
    }

    const fields = operationFields(spec, req);
    // An operation that takes no input at all (sign-out) still gets a body and a token it cannot use.
    const takesNothing =
      fields.length === 0 &&
      !req.raw &&
      method !== 'GET' &&
      !spec.requestBody &&
      !(spec.parameters as unknown[] | undefined)?.length;
    expect(fields.length + (req.raw ? 1 : 0) + (method === 'GET' || takesNothing ? 1 : 0)).toBeGreaterThan(0);

    const failures: string[] = [];
    let cases = 0;
    const run = async (
      label: string,
      send: () => Promise<Sent>,
      must400: boolean,
      field: string | undefined,
    ) => {
      cases++;
      const res = await send();
      const v = verdict(res, must400, field);
      if (v) failures.push(`${label}: ${v}`);
      // A request that went through may have used up its record (a delete, a transition): build anew.
      if (res.status < 300) req = await build();
    };

    for (const f of fields) {
      const valid =
        f.where === 'path'
          ? req.path?.[String(f.path[0])]
          : f.where === 'query'
            ? req.query?.[String(f.path[0])]
            : f.where === 'form'
              ? req.form?.fields[String(f.path[0])]
              : getAt(req.body, f.path);
      const classes = classesFor(f, valid);
      // Unknown keys of a body object the schema closes.
      if (f.where === 'body' && f.kind === 'object' && f.closed)
        classes.push({ name: 'unknown extra field', value: undefined, must400: true });
      for (const c of classes) {
        const label = `${f.where} ${fieldName(f) || '(root)'} ← ${c.name}`;
        if (f.where === 'path' || f.where === 'query') {
          await run(
            label,
            () => {
              const { headers, payload } = payloadOf(req);
              return inject(method, urlWith(path, req, f, c.encoded), auth, headers, payload);
            },
            c.must400,
            fieldName(f),
          );
        } else if (f.where === 'form') {
          const name = String(f.path[0]);
          await run(
            label,
            () => {
              const form = req.form as NonNullable<OpRequest['form']>;
              const value = typeof c.value === 'string' ? c.value : JSON.stringify(c.value);
              const m = multipartForm({ ...form.fields, [name]: value }, form.files);
              // A lone surrogate cannot be written as UTF-8: send the bytes a broken encoder would.
              const payload =
                c.name === 'lone surrogate'
                  ? Buffer.from(
                      m.payload.toString('latin1').replace('\xEF\xBF\xBD', '\xED\xA0\x80'),
                      'latin1',
                    )
                  : m.payload;
              return inject(method, urlWith(path, req), auth, { 'content-type': m.contentType }, payload);
            },
            c.must400,
            name,
          );
        } else {
          const unknownKey = c.name === 'unknown extra field';
          const target = unknownKey ? [...f.path, 'zzUnknownField'] : f.path;
          await run(
            label,
            () => {
              const body = setAt(req.body, target, unknownKey ? 1 : c.value);
              return inject(
                method,
                urlWith(path, req),
                auth,
                { 'content-type': 'application/json', ...(req.headers ?? {}) },
                JSON.stringify(body),
              );
            },
            c.must400,
            target.join('.'),
          );
        }
      }
    }
    if (takesNothing) {
      await run(
        'body ← a JSON body the operation takes none of',
        () =>
          inject(
            method,
            urlWith(path, req),
            auth,
            { 'content-type': 'application/json', ...(req.headers ?? {}) },
            JSON.stringify({ zzUnknown: 1 }),
          ),
        false,
        undefined,
      );
      await run(
        'authorization ← a bearer token that is no token',
        () => inject(method, urlWith(path, req), undefined, { authorization: 'Bearer not.a-token' }),
        false,
        undefined,
      );
    }
    // An unknown query parameter is ignored or refused, never a failure.
    if (method === 'GET')
      await run(
        'query zzUnknown ← unknown parameter',
        () =>
          inject(
            method,
            `${urlWith(path, req)}${req.query && Object.keys(req.query).length ? '&' : '?'}zzUnknown=1`,
            auth,
            {},
          ),
        false,
        undefined,
      );
    // A body of another kind than the operation reads.
    if (req.raw) {
      for (const [name, payload] of [
        ['NUL byte in the text body', `${req.raw.payload}\u0000`],
        ['20 000 characters of text', 'x'.repeat(20_000)],
      ] as const)
        await run(
          `body ← ${name}`,
          () =>
            inject(
              method,
              urlWith(path, req),
              auth,
              { 'content-type': req.raw?.contentType as string },
              payload,
            ),
          false,
          undefined,
        );
    }
    if (req.body !== undefined) {
      await run(
        'body ← not JSON',
        () => inject(method, urlWith(path, req), auth, { 'content-type': 'application/json' }, '{"a":'),
        true,
        undefined,
      );
      await run(
        'body ← JSON array for object',
        () => inject(method, urlWith(path, req), auth, { 'content-type': 'application/json' }, '[]'),
        false,
        undefined,
      );
    }
    if (req.form) {
      const m = multipartForm(req.form.fields, req.form.files);
      const url = urlWith(path, req);
      await run(
        'multipart without boundary',
        () => inject(method, url, auth, { 'content-type': 'multipart/form-data' }, m.payload),
        true,
        undefined,
      );
      await run(
        'multipart without closing boundary',
        () =>
          inject(
            method,
            url,
            auth,
            { 'content-type': m.contentType },
            m.payload.subarray(0, m.payload.length - `--${m.boundary}--\r\n`.length),
          ),
        true,
        undefined,
      );
      // Not multipart at all: 415 names the problem exactly; 400 is accepted too.
      cases++;
      const notMultipart = await inject(
        method,
        url,
        auth,
        { 'content-type': 'application/json' },
        JSON.stringify(req.form.fields),
      );
      if (
        ![400, 415].includes(notMultipart.status) ||
        !String(notMultipart.headers['content-type']).startsWith('application/problem+json')
      )
        failures.push(`not multipart: ${notMultipart.status} ${notMultipart.text.slice(0, 160)}`);
    }
    expect(cases).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it('refuses money beyond its column on the job costing (amount × rate), with the field', async () => {
    const req = await OPERATIONS['PUT /api/dossiers/{id}/charges']?.build({
      world: w,
      owner: 'A',
      role: 'staff',
    });
    const body = req?.body as { version: number; charges: Json[] };
    const huge = {
      ...body,
      charges: [{ ...(body.charges[0] as Json), amount: '999999999999.99', exchangeRate: '999999' }],
    };
    const res = await inject(
      'PUT',
      `/api/dossiers/${w.A.dossierId}/charges`,
      w.staff,
      { 'content-type': 'application/json' },
      JSON.stringify(huge),
    );
    expect(verdict(res, true, undefined)).toBeUndefined();
    expect(errorFields(res).some((f) => f?.startsWith('charges.0.'))).toBe(true);
  });
});

describe("the HTTP layer's own refusals are problem+json", () => {
  let port: number;
  beforeAll(async () => {
    await w.app.listen({ port: 0, host: '127.0.0.1' });
    port = (w.app.server.address() as AddressInfo).port;
  });

  /**
   * One request written byte for byte on a real socket, and whatever the server answers before it
   * closes: a server that refuses a request it has not finished reading may reset the connection,
   * and a client library would then report only the reset, not the answer that came first.
   */
  function raw(target: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; type: string; body: string }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...rest] = text.split('\r\n\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        const type = /^content-type:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '';
        let body = rest.join('\r\n\r\n');
        if (/^transfer-encoding:\s*chunked/im.test(head))
          body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n/gi, '');
        resolve({ status, type, body: body.trim() });
      };
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', () => {}); // a reset after the answer: the answer is what counts
      socket.on('close', done);
      const lines = [`GET ${target} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close'];
      for (const [k, v] of Object.entries({ ...w.staff, ...headers })) lines.push(`${k}: ${v}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.setTimeout(10_000, () => socket.destroy());
    });
  }
  const problem = (r: { status: number; type: string; body: string }) => ({
    status: r.status,
    problemJson: r.type.startsWith('application/problem+json'),
    bodyStatus: (() => {
      try {
        return (JSON.parse(r.body) as { status?: number }).status;
      } catch {
        return undefined;
      }
    })(),
  });

  it('answers a valid request on the same kind of socket (the helper reads answers right)', async () => {
    const res = await raw('/api/health');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });

  it('a malformed percent-encoding in the path: 400', async () => {
    expect(problem(await raw('/api/parties/%zz'))).toEqual({
      status: 400,
      problemJson: true,
      bodyStatus: 400,
    });
  });

  it('a path parameter of 2 000 characters: 414', async () => {
    expect(problem(await raw(`/api/parties/${'a'.repeat(2000)}`))).toEqual({
      status: 414,
      problemJson: true,
      bodyStatus: 414,
    });
  });

  it('a 16 KB query string: 414, not a reset connection', async () => {
    expect(problem(await raw(`/api/dossiers?q=${'a'.repeat(16 * 1024)}`))).toEqual({
      status: 414,
      problemJson: true,
      bodyStatus: 414,
    });
  });

  it('a 64 KB cookie: 431', async () => {
    expect(problem(await raw('/api/me', { cookie: `c=${'a'.repeat(64 * 1024)}` }))).toEqual({
      status: 431,
      problemJson: true,
      bodyStatus: 431,
    });
  });
});
