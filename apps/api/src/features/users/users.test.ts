import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../../http/problem.ts';
import { apiTest } from '../../test/api-test.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { usersService } from './users.service.ts';

const { db } = apiTest({ app: false });

async function problemOf(p: Promise<unknown>): Promise<HttpProblem> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HttpProblem);
  return e as HttpProblem;
}

describe('usersService.create', () => {
  it('creates a customer linked to a party (code case-insensitive), with an argon2id hash', async () => {
    const { id } = await usersService(db.db).create({
      email: 'New.Person@Acme.example',
      password: 'long-enough-password',
      role: 'customer',
      party: 'acme',
      cwAccess: true,
    });
    const row = await db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.email).toBe('new.person@acme.example');
    expect(row.cw_access).toBe(true);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.password_hash, 'long-enough-password')).toBe(true);
    expect(await verifyPassword(row.password_hash, 'wrong')).toBe(false);
  });

  it('refuses a duplicate email with 409 on the email field', async () => {
    const p = await problemOf(
      usersService(db.db).create({
        email: 'ADMIN@fvg.local',
        password: 'long-enough-password',
        role: 'staff',
      }),
    );
    expect(p.status).toBe(409);
    expect(p.options.errors).toEqual([{ field: 'email', message: 'This email is already in use' }]);
  });

  it('refuses an unknown party, a customer without party, a short password and a bad email', async () => {
    const svc = usersService(db.db);
    const unknownParty = await problemOf(
      svc.create({ email: 'x1@x.test', password: 'long-enough-password', role: 'customer', party: 'NOPE' }),
    );
    expect(unknownParty.status).toBe(400);
    expect(unknownParty.options.errors?.[0]?.field).toBe('party');

    const noParty = await problemOf(
      svc.create({ email: 'x2@x.test', password: 'long-enough-password', role: 'customer' }),
    );
    expect(noParty.options.errors?.map((e) => e.field)).toEqual(['party']);

    const short = await problemOf(svc.create({ email: 'x3@x.test', password: 'short', role: 'staff' }));
    expect(short.options.errors?.map((e) => e.field)).toEqual(['password']);

    const badEmail = await problemOf(
      svc.create({ email: 'not-an-email', password: 'long-enough-password', role: 'staff' }),
    );
    expect(badEmail.options.errors?.map((e) => e.field)).toEqual(['email']);
    const count = await db.db
      .selectFrom('users')
      .select(db.db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(5); // 4 demo users + the one created above, nothing half-written
  });

  it('lets only one of two concurrent creates of the same email win', async () => {
    const svc = usersService(db.db);
    const results = await Promise.allSettled(
      [1, 2].map(() => svc.create({ email: 'race@x.test', password: 'long-enough-password', role: 'staff' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((failed.reason as HttpProblem).status).toBe(409);
  });
});
