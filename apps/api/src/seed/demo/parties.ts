import { type PartyFields, partyCreateSchema } from '@fvg/contracts';
import { partiesRepository } from '../../features/parties/parties.repository.ts';
import { PARTY_FIELDS, toColumns } from '../../features/parties/parties.service.ts';
import { auditCreated, type DemoContext, valid } from './context.ts';

/**
 * The customers' trading partners (shippers and consignees abroad) and a road haulier, created by
 * staff as the parties screen would: the demo sign-ins' own four parties stay as seed.ts has them.
 */
const PARTNERS: PartyFields[] = [
  {
    code: 'SZBRIGHT',
    name: 'Shenzhen Bright Electronics Co., Ltd.',
    kinds: ['consignor'],
    countryCode: 'CN',
    street: '88 Keyuan Road, Nanshan District',
    postalCode: '518057',
    city: 'Shenzhen',
    email: 'export@szbright.example',
  },
  {
    code: 'NINGBOFURN',
    name: 'Ningbo Garden Furniture Manufacturing Co.',
    kinds: ['consignor'],
    countryCode: 'CN',
    street: '12 Beilun Industrial Park',
    postalCode: '315800',
    city: 'Ningbo',
  },
  {
    code: 'MIDWESTPUMP',
    name: 'Midwest Pump Distributors Inc.',
    kinds: ['consignee', 'notify'],
    countryCode: 'US',
    street: '400 W Randolph St',
    postalCode: '60606',
    city: 'Chicago',
    email: 'receiving@midwestpump.example',
  },
  {
    code: 'BRITPARTS',
    name: 'Brit Auto Parts Ltd',
    kinds: ['consignee'],
    countryCode: 'GB',
    vatNumber: 'GB123456789',
    street: 'Unit 4, Trafford Park',
    postalCode: 'M17 1PA',
    city: 'Manchester',
  },
  {
    code: 'VANDIJK',
    name: 'Van Dijk Wegtransport B.V.',
    kinds: ['carrier'],
    countryCode: 'NL',
    vatNumber: 'NL812345678B01',
    eori: 'NL812345678',
    street: 'Distributieweg 12',
    postalCode: '3197 KK',
    city: 'Rotterdam',
    phone: '+31 10 555 0199',
    contacts: [{ name: 'Kees van Dijk', email: 'planning@vandijk.example', role: 'Planning' }],
  },
];

export async function seedParties(ctx: DemoContext): Promise<void> {
  for (const [i, input] of PARTNERS.entries()) {
    const party = valid(partyCreateSchema, input, `party ${input.code}`);
    const created = new Date(ctx.today.getTime() - (120 - i) * 86_400_000);
    const row = await partiesRepository(ctx.db).insert({
      ...toColumns(party),
      created_by: ctx.users.staff,
      updated_by: ctx.users.staff,
      created_at: created,
      updated_at: created,
    });
    ctx.parties[party.code] = row.id;
    await auditCreated(ctx, { kind: 'party', id: row.id, at: created }, party, PARTY_FIELDS);
  }
}
