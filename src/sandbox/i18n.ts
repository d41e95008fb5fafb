import { LANGUAGES, type Language } from '../contract/enums.js';

// Localization: English and French. The language of an API answer is, in order: the `Language`
// query parameter (or body field), the first supported language of Accept-Language, the
// customer's own language, the business default.

const LOCALES: Record<Language, string> = { en: 'en-US', fr: 'fr-FR' };
const formatters = new Map<string, Intl.NumberFormat>();

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.includes(value as Language);
}

/**
 * The language the sandbox localizes in for a customer's language tag: its primary subtag when
 * it is English or French (`fr-CA` gives `fr`), else null (the caller falls back further).
 */
export function supportedLanguage(tag: string | null | undefined): Language | null {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return isLanguage(primary) ? primary : null;
}

export function formatMoney(
  amountHundredths: number,
  currency: string,
  language: Language,
): string {
  const key = `${language}:${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency });
    formatters.set(key, formatter);
  }
  return formatter.format(amountHundredths / 100);
}

/** How French writes the first day of a month before the month's name: an ordinal. */
const FRENCH_FIRST_OF_MONTH = '1er';

/** A long date ("December 1, 2026"; in French "1er décembre 2026", where Intl writes "1 décembre"). */
export function formatDate(isoDate: string, language: Language): string {
  const format = new Intl.DateTimeFormat(LOCALES[language], {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  const date = new Date(isoDate);
  if (language !== 'fr') return format.format(date);
  return format
    .formatToParts(date)
    .map(({ type, value }) => (type === 'day' && value === '1' ? FRENCH_FIRST_OF_MONTH : value))
    .join('');
}

/** First supported language in an Accept-Language header, honouring q-values. */
export function fromAcceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.tag && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

const RECURRENCE: Record<Language, Record<string, [string, string]>> = {
  en: { Month: ['month', 'months'], Year: ['year', 'years'] },
  fr: { Month: ['mois', 'mois'], Year: ['an', 'ans'] },
};

/**
 * "/ month", "/ 3 months", "/ mois", with no-break spaces: a price and its period stay on one
 * line (callers join them with a no-break space too).
 */
export function perPeriod(duration: number, unit: string, language: Language): string {
  const [one, many] = RECURRENCE[language][unit] ?? [unit, unit];
  return duration === 1 ? `/\u00a0${one}` : `/\u00a0${duration}\u00a0${many}`;
}

export const LABELS = {
  en: {
    amountDueNow: 'Due now',
    noCharge: 'No extra charge',
    nextTerm: 'New recurring price',
    onRequest: 'On request',
    changeAtTermEnd: 'Changes at the end of the current period',
    addedToNextInvoice: 'Added to the next invoice',
  },
  fr: {
    amountDueNow: 'À payer maintenant',
    noCharge: 'Aucun supplément',
    nextTerm: 'Nouveau prix récurrent',
    onRequest: 'Sur demande',
    changeAtTermEnd: 'Changement à la fin de la période en cours',
    addedToNextInvoice: 'Ajouté à la prochaine facture',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** "for each unit above 5" and its French, for the pricing text of a metered feature. */
export function eachUnitAbove(included: number, language: Language): string {
  const count = new Intl.NumberFormat(LOCALES[language]).format(included);
  return language === 'fr' ? `par unité au-delà de ${count}` : `for each unit above ${count}`;
}
