import { sql } from 'kysely';
import { createNotificationBus } from '../../features/notifications/notification-bus.ts';
import { salesInvoicesService } from '../../features/sales-invoices/sales-invoices.service.ts';
import type { SessionUser } from '../../features/users/users.repository.ts';
import { createRecordEvents } from '../../records/events.ts';
import { type DemoContext, type DemoDossier, dayOf } from './context.ts';

interface Plan {
  customer: 'ACME' | 'GLOBEX';
  dossier: DemoDossier;
  currency: string;
  /** Days before today it was issued; undefined: left a draft. */
  issuedDaysAgo?: number;
  /** Payments: the share of the total and how many days ago. */
  payments?: { share: number; daysAgo: number }[];
  /** Half of its first line credited, this many days ago. */
  creditDaysAgo?: number;
  /** A loyalty discount on the whole invoice (5 % of its lines); with `lineCharge`, ADR 0049. */
  discount?: boolean;
  /** A surcharge on its first line: waiting time at the terminal. */
  lineCharge?: boolean;
}

/**
 * Sales invoices of the demo company, through the invoices service as staff would make them, so the
 * numbers are the series' own and consecutive in the order of their issue dates. For each demo
 * customer: one paid, one partly paid, one overdue (issued well before its 30-day term ran out), one
 * issued today in another currency, and a draft; Acme also has a credit note, and its overdue invoice
 * a loyalty discount on the whole invoice and a waiting-time surcharge on a line (its draft one too).
 */
export async function seedInvoices(ctx: DemoContext) {
  const staff = (await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', ctx.users.staff)
    .executeTakeFirstOrThrow()) as unknown as SessionUser;
  const service = salesInvoicesService(ctx.db, createRecordEvents(), createNotificationBus());

  // Dossiers that went their way (not requested or cancelled), with revenue in EUR not billed yet.
  const billable = async (customer: 'ACME' | 'GLOBEX') => {
    const out: DemoDossier[] = [];
    for (const d of ctx.dossiers) {
      if (d.customer !== customer || ['requested', 'cancelled', 'booked'].includes(d.status)) continue;
      const r = await sql<{ currencies: string[] }>`
        select array_agg(distinct trim(currency)) as currencies from dossier_charges
        where dossier_id = ${d.id} and kind = 'revenue'`.execute(ctx.db);
      if (r.rows[0]?.currencies?.includes('EUR')) out.push(d);
    }
    return out;
  };
  const plans: Plan[] = [];
  for (const customer of ['ACME', 'GLOBEX'] as const) {
    const ds = await billable(customer);
    const [paid, partly, overdue, draft] = ds;
    if (paid)
      plans.push({
        customer,
        dossier: paid,
        currency: 'EUR',
        issuedDaysAgo: 58,
        payments: [{ share: 1, daysAgo: 31 }],
      });
    if (partly)
      plans.push({
        customer,
        dossier: partly,
        currency: 'EUR',
        issuedDaysAgo: 21,
        payments: [{ share: 0.5, daysAgo: 6 }],
        ...(customer === 'ACME' ? { creditDaysAgo: 4 } : {}),
      });
    const acme = customer === 'ACME';
    if (overdue)
      plans.push({
        customer,
        dossier: overdue,
        currency: 'EUR',
        issuedDaysAgo: 44,
        ...(acme ? { discount: true, lineCharge: true } : {}),
      });
    if (draft)
      plans.push({ customer, dossier: draft, currency: 'EUR', ...(acme ? { lineCharge: true } : {}) });
  }
  // The ocean and air freight is billed in USD: the first sea or air dossier of each customer.
  for (const customer of ['ACME', 'GLOBEX'] as const) {
    for (const d of ctx.dossiers.filter(
      (x) => x.customer === customer && !['requested', 'cancelled'].includes(x.status),
    )) {
      const usd = await sql<{ n: number }>`
        select count(*)::int as n from dossier_charges where dossier_id = ${d.id} and kind = 'revenue' and currency = 'USD'`.execute(
        ctx.db,
      );
      if ((usd.rows[0]?.n ?? 0) > 0) {
        // Issued today: the dashboard's revenue this month has a figure even on the 1st.
        plans.push({ customer, dossier: d, currency: 'USD', issuedDaysAgo: 0 });
        break;
      }
    }
  }

  const made: { plan: Plan; id: string; version: number; number?: string }[] = [];
  for (const plan of plans) {
    const d = await service.create(staff, {
      dossierId: plan.dossier.id,
      currency: plan.currency,
      buyerReference: plan.dossier.customerReference,
    });
    if (!plan.discount && !plan.lineCharge) {
      made.push({ plan, id: d.id, version: d.version });
      continue;
    }
    // Edited as staff would in the draft editor: the same rule and arithmetic as every other path.
    const first = d.lines[0];
    const discount = (Math.round(Number(d.totals.lineExtensionAmount) * 5) / 100).toFixed(2);
    const edited = await service.update(staff, d.id, {
      version: d.version,
      ...(plan.discount && first
        ? {
            allowanceCharges: [
              {
                isCharge: false,
                amount: discount,
                reasonCode: '95',
                reason: 'Loyalty discount 5 %',
                vatCode: first.vatCode,
                vatRate: first.vatRate,
              },
            ],
          }
        : {}),
      ...(plan.lineCharge
        ? {
            lines: d.lines.map((l, i) => ({
              chargeId: l.chargeId,
              chargeCode: l.chargeCode,
              description: l.description,
              quantity: l.quantity,
              unit: l.unit,
              unitPrice: l.unitPrice,
              vatCode: l.vatCode,
              vatRate: l.vatRate,
              exemptionReason: l.exemptionReason,
              allowanceCharges:
                i === 0
                  ? [
                      {
                        isCharge: true,
                        amount: '45.00',
                        reasonCode: 'SH',
                        reason: 'Waiting time at the terminal',
                      },
                    ]
                  : [],
            })),
          }
        : {}),
    });
    made.push({ plan, id: edited.id, version: edited.version });
  }
  // Issued oldest first: the numbers follow the issue dates, as a tax auditor expects.
  const toIssue = made
    .filter((m) => m.plan.issuedDaysAgo !== undefined)
    .sort((a, b) => (b.plan.issuedDaysAgo as number) - (a.plan.issuedDaysAgo as number));
  let creditNotes = 0;
  for (const m of toIssue) {
    const issued = await service.issue(staff, m.id, {
      version: m.version,
      issueDate: dayOf(ctx, -(m.plan.issuedDaysAgo as number)),
    });
    m.number = issued.number ?? undefined;
    for (const p of m.plan.payments ?? []) {
      const total = Number(issued.totals.taxInclusiveAmount);
      const amount = p.share === 1 ? issued.openAmount : (Math.round(total * p.share * 100) / 100).toFixed(2);
      await service.pay(staff, m.id, {
        paidOn: dayOf(ctx, -p.daysAgo),
        amount,
        reference: `${m.plan.customer === 'ACME' ? 'ABN AMRO' : 'Commerzbank'} ${m.number}`,
      });
    }
  }
  // The credit note comes after the other issues of its day, so it too follows the dates.
  for (const m of made.filter((x) => x.plan.creditDaysAgo !== undefined)) {
    const invoice = await service.get(staff, m.id);
    const first = invoice.lines[0];
    if (!first) continue;
    const cn = await service.credit(staff, m.id, {
      version: invoice.version,
      lines: [{ lineId: first.id, quantity: '0.5' }],
    });
    await service.issue(staff, cn.id, {
      version: cn.version,
      issueDate: dayOf(ctx, -(m.plan.creditDaysAgo as number)),
    });
    creditNotes++;
  }
  return { invoices: made.length, issued: toIssue.length, creditNotes };
}
