import { chatTextSchema } from '@fvg/contracts';
import { type DemoContext, type DemoDossier, valid } from './context.ts';

type Line = { from: 'customer' | 'staff'; text: (d: DemoDossier) => string };

/** Conversations a forwarder has every day; each ends with a message the other side has not read yet. */
const SCRIPTS: Line[][] = [
  [
    {
      from: 'customer',
      text: (d) => `Hi, can you confirm when the goods for our order ${d.customerReference} are picked up?`,
    },
    {
      from: 'staff',
      text: () =>
        'The truck is booked for the day before departure, between 07:00 and 09:00. The driver calls 30 minutes ahead.',
    },
    { from: 'customer', text: () => 'Perfect, dock 3 will be ready for loading.' },
  ],
  [
    {
      from: 'staff',
      text: (d) =>
        `Update on ${d.number}: the vessel${d.vessel ? ` ${d.vessel.name}` : ''} is delayed, the new arrival estimate is ${d.eta}.`,
    },
    { from: 'customer', text: () => 'Thanks for letting us know. Does that change the delivery date?' },
    {
      from: 'staff',
      text: () => 'Delivery moves to the day after discharge; we will book a new slot with your warehouse.',
    },
  ],
  [
    { from: 'customer', text: () => 'Could you send us the commercial invoice for the customs declaration?' },
    {
      from: 'staff',
      text: () => 'It is in the documents tab of this dossier now, together with the packing list.',
    },
  ],
  [
    {
      from: 'customer',
      text: () => 'Is there any risk of demurrage on these containers? Our warehouse is full until Thursday.',
    },
  ],
  [
    {
      from: 'staff',
      text: () => 'Customs asked for the certificate of origin. Can you upload it or send it by mail?',
    },
    { from: 'customer', text: () => 'Uploaded it a minute ago, please check.' },
    { from: 'staff', text: () => 'Received, thank you. The declaration is filed.' },
  ],
];

/**
 * Chat threads on open dossiers of both customers, with read markers as the app keeps them: writing
 * marks everything up to one's own message read, so the other side's last messages stay unread.
 */
export async function seedChat(ctx: DemoContext): Promise<{ threads: number; messages: number }> {
  const open = new Set(['booked', 'in_transit', 'arrived', 'cleared']);
  const threads: [DemoDossier, Line[]][] = [];
  for (const customer of ['ACME', 'GLOBEX'] as const) {
    const candidates = ctx.dossiers.filter((d) => d.customer === customer && open.has(d.status));
    SCRIPTS.forEach((script, i) => {
      const d = candidates[i * 2] ?? candidates[i];
      if (d && !threads.some(([t]) => t === d)) threads.push([d, script]);
    });
  }
  let messages = 0;
  for (const [t, [d, script]] of threads.entries()) {
    const customerUser = d.customer === 'ACME' ? ctx.users.acme : ctx.users.globex;
    const staffUser = t % 3 === 2 ? ctx.users.admin : ctx.users.staff;
    // The conversation happened over the last day or two, an hour or so between messages.
    let sent = ctx.now.getTime() - (30 + t * 3) * 3_600_000;
    for (const line of script) {
      sent += (47 + ((t * 13 + messages * 7) % 70)) * 60_000;
      const author = line.from === 'customer' ? customerUser : staffUser;
      const text = valid(chatTextSchema, line.text(d), `chat message on ${d.number}`);
      const at = new Date(Math.min(sent, ctx.now.getTime() - 60_000));
      await ctx.db
        .insertInto('chat_messages')
        .values({ dossier_id: d.id, author_id: author, text, sent_at: at })
        .execute();
      await ctx.db
        .insertInto('chat_reads')
        .values({ dossier_id: d.id, user_id: author, last_read_at: at })
        .onConflict((oc) => oc.columns(['dossier_id', 'user_id']).doUpdateSet({ last_read_at: at }))
        .execute();
      messages++;
    }
  }
  return { threads: threads.length, messages };
}
