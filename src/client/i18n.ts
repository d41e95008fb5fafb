import type { ReactiveControllerHost } from 'lit';
import { getBillingConfig } from './config.js';

/** The languages the elements speak, in the order of each text in {@link BuiltInTexts}. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The texts several elements share, by key (their built-in wording is in shared-texts.ts). Keys are dotted and kebab-case (`meter.not-in-plan`);
 * an error's key is `error.` and its code as the proxy spells it. `{name}` placeholders are
 * replaced by the values given to {@link message}.
 */
export interface CoreMessages {
  loading: string;
  retry: string;
  close: string;
  'error.generic': string;
  'error.network': string;
  'error.upstream-unavailable': string;
  'error.timeout': string;
  'error.unauthenticated': string;
  'error.rate-limited': string;
  'error.no-subscription': string;
  'error.subscription-suspended': string;
  'error.payment-method-invalid': string;
  'error.price-changed': string;
  'error.period-ending': string;
  'error.forbidden-origin': string;
  'error.Error.Api.Usage.NoneMatching': string;
  'error.not-in-plan.suggest': string;
  'error.Error.Customer.PaymentSettings.Missing': string;
  'error.Error.Customer.Billing.CappingReached': string;
  'error.Error.Subscription.NotActive': string;
  'remedy.change-plan': string;
  'remedy.change-plan.to': string;
  'remedy.register': string;
  'remedy.pay-invoice': string;
  'remedy.restart': string;
  'remedy.offers': string;
  'cta.pointer': string;
  'portal.title': string;
  'portal.loading': string;
  'portal.error': string;
  'portal.unsafe': string;
  'portal.link.home': string;
  'portal.link.offers': string;
  'portal.link.subscribe': string;
  'portal.link.register': string;
  'portal.link.change-plan': string;
  'portal.link.restart': string;
  'portal.link.pay-invoice': string;
  'state.no-subscription': string;
  'state.signed-out': string;
  'state.sign-in': string;
  'state.unavailable': string;
  'state.pending': string;
  'error.subscription-pending': string;
  'error.already-subscribed': string;
  'remedy.subscribe': string;
}

/**
 * Every text by key: the shared ones plus those each element declares in its `messages.ts`
 * (declaration merging) and registers with {@link registerTexts}.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by each element's messages file
export interface BillingMessages extends CoreMessages {}

export type MessageKey = keyof BillingMessages;
export type MessageVars = Record<string, string | number>;

/** A text in each of {@link LANGUAGES}, in that order. */
type Translations = readonly [en: string, fr: string];

/**
 * Built-in texts by key, one entry per key with its text in each language: each key is written
 * once, and a text cannot be missing from a language.
 */
export type BuiltInTexts<K extends MessageKey> = Record<K, Translations>;

const catalogues: Record<Language, Partial<BillingMessages>> = { en: {}, fr: {} };

/** The keys that start with `Prefix`, without it. */
type KeysAfter<Prefix extends string> = MessageKey extends infer Key
  ? Key extends `${Prefix}${infer Rest}`
    ? Rest
    : never
  : never;

/**
 * Adds built-in texts: the shared ones here, an element's own when its class is defined. The
 * keys may be written without a common `prefix` (`meter.`, say), which registration puts back;
 * a prefix that starts no key does not compile. Page overrides given to `configureBilling` still
 * win over them.
 */
export function registerTexts<Prefix extends string = ''>(
  texts: Partial<Record<KeysAfter<Prefix>, Translations>>,
  prefix: [KeysAfter<Prefix>] extends [never] ? never : Prefix = '' as never,
): void {
  for (const [name, translations] of Object.entries(texts) as [string, Translations][]) {
    const key = (prefix + name) as MessageKey;
    LANGUAGES.forEach((language, index) => {
      catalogues[language][key] = translations[index];
    });
  }
}

/** Maps any BCP 47 tag to a language of the elements ('fr-CA' → 'fr'); English otherwise. */
export function toLanguage(tag: string | null | undefined): Language {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] as Language;
  return LANGUAGES.includes(primary) ? primary : 'en';
}

/** The `lang` of the closest ancestor that has one, crossing shadow roots. */
export function langOf(element: Element): string | null {
  let node: Element | null = element;
  while (node) {
    const tagged: Element | null = node.closest('[lang]');
    if (tagged) return tagged.getAttribute('lang');
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}

/**
 * Renders the element again, while it is connected, whenever a `lang` attribute changes in the
 * document (the host app switching languages): its texts and formats follow the closest `lang`.
 */
export function followLang(host: ReactiveControllerHost): void {
  // Made on connection: an element built for server rendering has no MutationObserver to use.
  let observer: MutationObserver | undefined;
  host.addController({
    hostConnected() {
      observer ??= new MutationObserver(() => host.requestUpdate());
      observer.observe(document, { attributeFilter: ['lang'], subtree: true });
    },
    hostDisconnected() {
      observer?.disconnect();
    },
  });
}

/** The language of an element's texts: from the closest `lang`, 'en' or 'fr', 'en' by default. */
export function languageOf(element: Element): Language {
  return toLanguage(langOf(element));
}

/** The locale to give Intl: the element's full `lang` ('fr-CA') when valid, else its language. */
function intlLocale(target: Element | Language): string {
  if (typeof target === 'string') return target;
  const lang = langOf(target) ?? '';
  const language = toLanguage(lang);
  if (!lang.toLowerCase().startsWith(language)) return language;
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? language;
  } catch {
    // Not a valid BCP 47 tag ('fr-!!'): the language alone.
    return language;
  }
}

function interpolate(template: string, vars: MessageVars | undefined): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/** The text of `key` in a language, the page's override first; undefined when it has none. */
function textOf(language: Language, key: string): string | undefined {
  return (
    getBillingConfig().messages[language]?.[key as MessageKey] ??
    catalogues[language][key as MessageKey]
  );
}

/** The text for `key` in a language: page overrides, then built-ins, then English. */
export function messageFor(language: Language, key: MessageKey, vars?: MessageVars): string {
  return interpolate(textOf(language, key) ?? textOf('en', key) ?? key, vars);
}

/** The text for `key` in the element's language, with `{name}` placeholders filled. */
export function message(element: Element, key: MessageKey, vars?: MessageVars): string {
  return messageFor(languageOf(element), key, vars);
}

/** Whether a key has a text (lets callers fall back for open-ended keys such as error codes). */
export function hasMessage(language: Language, key: string): key is MessageKey {
  return textOf(language, key) !== undefined;
}

/**
 * The text of an open-ended key (an error code's, a portal page's) in the element's language
 * when it has one, else the fallback's.
 */
export function messageOr(element: Element, key: string, fallback: MessageKey): string {
  return message(element, hasMessage(languageOf(element), key) ? key : fallback);
}

/**
 * Proxy codes worded as the browser's own: to a customer, billing was slow whether the proxy or
 * the service behind it was. (A service that is down is not the customer's connection: it has
 * its own text.)
 */
const SAME_TEXT_AS = new Map([
  ['upstream-timeout', 'timeout'],
  // The proxy's own store is down, or the proxy is stopping: to a customer, billing is
  // unavailable for a moment, as when the service is.
  ['store-unavailable', 'upstream-unavailable'],
  ['shutting-down', 'upstream-unavailable'],
]);

/** The text of an error code (`error.<code>`) in the element's language, else the fallback's. */
export function errorMessage(element: Element, code: string, fallback: MessageKey): string {
  return messageOr(element, `error.${SAME_TEXT_AS.get(code) ?? code}`, fallback);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Formats a number for the element's locale (cached Intl.NumberFormat). */
export function formatNumber(
  target: Element | Language,
  value: number,
  options: Intl.NumberFormatOptions = {},
): string {
  const locale = intlLocale(target);
  const cacheKey = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(cacheKey);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(cacheKey, format);
  }
  return format.format(value);
}

/** Formats an amount in hundredths of a currency unit. */
export function formatMoney(target: Element | Language, amount: number, currency: string): string {
  return formatNumber(target, amount / 100, { style: 'currency', currency });
}

/** Formats a ratio (0.8 → "80 %" in French, "80%" in English). */
export function formatPercent(target: Element | Language, ratio: number): string {
  return formatNumber(target, ratio, { style: 'percent', maximumFractionDigits: 0 });
}

/** Formats an ISO timestamp as a date; returns '' for an unreadable value. */
export function formatDate(
  target: Element | Language,
  iso: string | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
): string {
  // Given a Date, the constructor copies its time value exactly.
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = intlLocale(target);
  const format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
  if (toLanguage(locale) !== 'fr') return format.format(date);
  return frenchDate(format.formatToParts(date));
}

/** How French writes the first day of a month before the month's name: an ordinal. */
const FRENCH_FIRST_OF_MONTH = '1er';

/**
 * A French date from Intl's parts, the first of a month written "1er décembre" as French
 * does (Intl writes "1 décembre"); a numeric date (01/12/2026) is left as Intl writes it.
 */
function frenchDate(parts: Intl.DateTimeFormatPart[]): string {
  const monthInWords = parts.some(({ type, value }) => type === 'month' && !/^\d+$/.test(value));
  return parts
    .map(({ type, value }) =>
      type === 'day' && value === '1' && monthInWords ? FRENCH_FIRST_OF_MONTH : value,
    )
    .join('');
}
