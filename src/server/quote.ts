import type {
  NextTerm,
  NextTermAnswer,
  PricingUsageAnswer,
  PricingUsageResult,
} from '../contract/index.js';

// The service answers a quote in the seed's form (`AmountTotal`, `DatePeriodTerm`) or in the live
// reference's (`AmountTotalDue`, `DatePeriodEnd`, `Details` lines); the proxy hands the browser
// one form, the seed's names, whichever it read. Where both are present the seed's field wins:
// it is the one the price confirmation has always compared.

/** Labels for a quote that carries amounts but no localized label (the live form may omit them). */
const FALLBACK_LABELS = {
  en: { now: 'Due now', nextTerm: 'New recurring price' },
  fr: { now: 'À payer maintenant', nextTerm: 'Nouveau prix récurrent' },
} as const;

function labelsFor(language: string | undefined) {
  return language?.trim().toLowerCase().startsWith('fr') ? FALLBACK_LABELS.fr : FALLBACK_LABELS.en;
}

/** An amount in hundredths, formatted for the customer's language, for a quote without its own. */
function formatAmount(amount: number, currency: string, language: string | undefined): string {
  const locale = language?.split(/[,;]/)[0]?.trim() || 'en';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount / 100);
  } catch {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount / 100);
  }
}

/**
 * Reads a quote answer into the proxy's one form, or undefined when it carries no amount due now
 * in either form (the caller treats that as an invalid answer).
 */
export function normalizeQuote(
  answer: PricingUsageAnswer,
  feature: string,
  language: string | undefined,
): PricingUsageResult | undefined {
  const amountTotal = answer.AmountTotal ?? answer.AmountTotalDue;
  if (amountTotal === undefined) return undefined;
  const labels = labelsFor(language);
  const {
    AmountTotalDue: _due,
    DatePeriodEnd: periodEnd,
    NextTerm: nextTermAnswer,
    ...rest
  } = answer;
  const result: PricingUsageResult = {
    ...rest,
    ReferenceFeature: answer.ReferenceFeature ?? feature,
    LabelLocalized: answer.LabelLocalized ?? labels.now,
    PricingLocalized:
      answer.PricingLocalized ?? formatAmount(amountTotal, answer.Currency, language),
    AmountSubtotal: answer.AmountSubtotal ?? amountTotal,
    AmountTotal: amountTotal,
  };
  const periodTerm = answer.DatePeriodTerm ?? periodEnd;
  if (periodTerm !== undefined) result.DatePeriodTerm = periodTerm;
  const nextTerm = nextTermAnswer && normalizeNextTerm(nextTermAnswer, answer.Currency, language);
  if (nextTerm !== undefined) result.NextTerm = nextTerm;
  return result;
}

function normalizeNextTerm(
  answer: NextTermAnswer,
  currency: string,
  language: string | undefined,
): NextTerm | undefined {
  const amountTotal = answer.AmountTotal ?? answer.AmountTotalDue;
  if (amountTotal === undefined) return undefined;
  const { AmountTotalDue: _due, ...rest } = answer;
  return {
    ...rest,
    LabelLocalized: answer.LabelLocalized ?? labelsFor(language).nextTerm,
    PricingLocalized: answer.PricingLocalized ?? formatAmount(amountTotal, currency, language),
    AmountSubtotal: answer.AmountSubtotal ?? amountTotal,
    AmountTotal: amountTotal,
  };
}
