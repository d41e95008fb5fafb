import type { UpgradeQuote } from '../../contract/catalog.js';
import { localize } from '../catalog.js';
import type { SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
import { formatMoney, LABELS } from '../i18n.js';
import type { OfferChangePlan } from '../billing/offer-change.js';
import { presentLine, presentNextTerm } from './present-usage.js';

/** The quote of an offer change, in the shape of a price (both shapes) plus when it applies. */
export function presentUpgradeQuote(
  ctx: SandboxContext,
  plan: OfferChangePlan,
  lang: Language,
): UpgradeQuote {
  const { sub, customer, target } = plan;
  const currency = ctx.catalog.business.currency;
  const money = (amount: number) => formatMoney(amount, currency, lang);
  const labels = LABELS[lang];
  const segment = ctx.catalog.segmentOf(customer.segment);
  const current = ctx.catalog.offers.get(sub.offer);
  const label =
    plan.amountTotalDue > 0
      ? labels.amountDueNow
      : !plan.immediate
        ? labels.changeAtTermEnd
        : plan.amountTotal > 0
          ? labels.addedToNextInvoice
          : labels.noCharge;
  return {
    IdBusiness: ctx.catalog.business.id,
    IdSegment: segment.id,
    ReferenceSegment: segment.reference,
    IdCustomer: customer.id,
    ReferenceCustomer: customer.reference,
    IdSubscription: sub.id,
    ...(current ? { IdOfferCurrent: current.id, ReferenceOfferCurrent: current.reference } : {}),
    IdOffer: target.id,
    ReferenceOffer: target.reference,
    TitleLocalized: localize(target.title, lang),
    TypeChange: plan.direction,
    IsImmediate: plan.immediate,
    BillNow: plan.billNow,
    DateEffective: plan.dateEffective,
    LabelLocalized: label,
    PricingLocalized: money(plan.amountTotalDue),
    Currency: currency,
    AmountSubtotal: plan.amountSubtotal,
    AmountTotal: plan.amountTotal,
    AmountTotalDue: plan.amountTotalDue,
    DatePeriodStart: sub.periodStart,
    DatePeriodEnd: sub.periodEnd,
    DatePeriodTerm: sub.periodEnd,
    Details: plan.lines.map((line) => presentLine(line, lang, money)),
    // Immediate or scheduled, the next term starts when the current period ends.
    NextTerm: presentNextTerm(target, sub, plan.nextTerm, lang, money),
  };
}
