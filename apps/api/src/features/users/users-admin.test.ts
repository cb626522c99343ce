import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { mailText } from '../../test/helpers.ts';

const setup = apiTest({ smtp: true, config: { jobsEnabled: true } });
const { partyId, tokens } = setup;

const call = async (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  auth: { authorization: string } | undefined,
  payload?: object,
) => {
  const res = await setup.app.inject({
    method,
    url: `/api${url}`,
    headers: auth ?? {},
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
};

describe('user administration', () => {
  it('only admins list users; staff get the handler list', async () => {
    expect((await call('GET', '/users', tokens.staff)).status).toBe(403);
    const list = await call('GET', '/users?role=customer', tokens.admin);
    expect((list.body.items as { email: string }[]).map((u) => u.email).sort()).toEqual([
      'customer@acme.example',
      'customer@globex.example',
    ]);
    const handlers = await call('GET', '/users/handlers', tokens.staff);
    expect((handlers.body as unknown as { name: string }[]).map((h) => h.name)).toEqual([
      'Ada Admin',
      'Sam Staff',
    ]);
    expect((await call('GET', '/users/handlers', tokens.acme)).status).toBe(403);
  });

  it('invites a customer by mail; the link sets the password and the new user signs in', async () => {
    const invited = await call('POST', '/users/invite', tokens.admin, {
      email: 'New.Customer@Acme.example',
      name: 'Nina New',
      role: 'customer',
      partyId: partyId.ACME,
      cwAccess: true,
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      email: 'new.customer@acme.example',
      role: 'customer',
      party: { code: 'ACME' },
      cwAccess: true,
      active: true,
    });
    const mail = mailText((await setup.smtp.waitFor('new.customer@acme.example')).raw);
    const token = /reset\?token=([\w-]+)/.exec(mail)?.[1] as string;
    expect(token).toBeTruthy();
    expect(
      (await call('POST', '/auth/pwd/reset', undefined, { token, password: 'nina-password-1' })).status,
    ).toBe(200);
    const login = await call('POST', '/auth/access_token', undefined, {
      email: 'new.customer@acme.example',
      password: 'nina-password-1',
    });
    expect(login.status).toBe(200);
  });

  it('refuses a duplicate email, a customer without party, and non-admins', async () => {
    const dup = await call('POST', '/users/invite', tokens.admin, {
      email: 'staff@fvg.local',
      name: 'X',
      role: 'staff',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([{ field: 'email', message: 'This email is already in use' }]);
    const noParty = await call('POST', '/users/invite', tokens.admin, {
      email: 'x@y.test',
      name: 'X',
      role: 'customer',
    });
    expect(noParty.status).toBe(400);
    expect((noParty.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['partyId']);
    expect(
      (await call('POST', '/users/invite', tokens.staff, { email: 'z@y.test', name: 'Z', role: 'staff' }))
        .status,
    ).toBe(403);
  });

  it('changes access and deactivates; a deactivated user loses their session at once', async () => {
    const globex = (await call('GET', '/users?q=globex', tokens.admin)).body.items as { id: string }[];
    const id = globex[0]?.id as string;
    const granted = await call('PATCH', `/users/${id}`, tokens.admin, { cwAccess: true });
    expect(granted.body.cwAccess).toBe(true);
    expect((await call('GET', '/me', tokens.globex)).body).toMatchObject({ access: { cw_access: true } });
    await call('PATCH', `/users/${id}`, tokens.admin, { active: false });
    expect((await call('GET', '/me', tokens.globex)).status).toBe(401);
  });

  it('keeps an admin from locking themselves out', async () => {
    const me = (await call('GET', '/me', tokens.admin)).body.id as string;
    expect((await call('PATCH', `/users/${me}`, tokens.admin, { active: false })).status).toBe(409);
    expect((await call('PATCH', `/users/${me}`, tokens.admin, { role: 'staff' })).status).toBe(409);
  });
});
