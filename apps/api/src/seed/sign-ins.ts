import type { UserCreate } from '@fvg/contracts';
import type { Db } from '../db/database.ts';
import { usersService } from '../features/users/users.service.ts';

/** Demo sign-ins, also listed in the README. Only ever created in an empty database. */
export const DEMO_USERS: (UserCreate & { password: string })[] = [
  { email: 'admin@fvg.local', password: 'admin-demo-2026', name: 'Ada Admin', role: 'admin', cwAccess: true },
  {
    email: 'staff@fvg.local',
    password: 'staff-demo-2026',
    name: 'Sam Staff',
    role: 'staff',
    cwAccess: false,
  },
  {
    email: 'customer@acme.example',
    password: 'customer-demo-2026',
    name: 'Carla Customer',
    role: 'customer',
    party: 'ACME',
    cwAccess: true,
  },
  {
    email: 'customer@globex.example',
    password: 'customer-demo-2026',
    name: 'Gus Globex',
    role: 'customer',
    party: 'GLOBEX',
    cwAccess: false,
  },
];

const DEMO_PARTIES = [
  {
    code: 'ACME',
    name: 'Acme Trading B.V.',
    kinds: ['customer', 'consignee'],
    country_code: 'NL',
    vat_number: 'NL123456782B01',
    eori: 'NL123456789',
    street: 'Waalhaven Oostzijde 1',
    postal_code: '3087 BM',
    city: 'Rotterdam',
  },
  {
    code: 'GLOBEX',
    name: 'Globex GmbH',
    kinds: ['customer', 'consignor'],
    country_code: 'DE',
    vat_number: 'DE123456788',
    eori: 'DE1234567890123',
    street: 'Am Sandtorkai 5',
    postal_code: '20457',
    city: 'Hamburg',
  },
  {
    code: 'NORDCAR',
    name: 'Nord Cargo Transport N.V.',
    kinds: ['carrier'],
    country_code: 'BE',
    vat_number: 'BE0123456749',
    eori: 'BE0123456789',
    street: 'Noorderlaan 100',
    postal_code: '2030',
    city: 'Antwerpen',
  },
  {
    code: 'BLUESEA',
    name: 'Blue Sea Lines A/S',
    kinds: ['carrier', 'agent'],
    country_code: 'DK',
    vat_number: 'DK12345678',
    eori: 'DK12345678',
    street: 'Esplanaden 50',
    postal_code: '1098',
    city: 'København',
  },
];

/** The demo parties and sign-ins, into a database without users (callers check); returns email → user id. */
export async function insertDemoSignIns(db: Db): Promise<Record<string, string>> {
  await db
    .insertInto('parties')
    .values(DEMO_PARTIES)
    .onConflict((oc) => oc.doNothing())
    .execute();
  const users = usersService(db);
  const ids: Record<string, string> = {};
  for (const user of DEMO_USERS) ids[user.email] = (await users.create(user)).id;
  return ids;
}

/**
 * Seeds demo parties and users (not the demo company) when the database has no user yet; returns
 * the users it created. The API tests start from this small seed; a first start of the app seeds
 * through demo/index.ts (seedFirstStart), which adds the company in the same transaction.
 */
export async function seedDemo(db: Db): Promise<typeof DEMO_USERS> {
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) return [];
  await insertDemoSignIns(db);
  return DEMO_USERS;
}
