import type { ReactiveControllerHost } from 'lit';
import { getBillingConfig } from './config.js';

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * Every text of the elements, by key. Elements add their own keys by augmenting this
 * interface (`declare module`) and calling {@link registerMessages} with their defaults.
 * `{name}` placeholders are replaced by the values given to {@link message}.
 */
export interface CoreMessages {
  loading: string;
  retry: string;
  close: string;
  'error.generic': string;
  'error.network': string;
  'error.timeout': string;
  'error.unauthenticated': string;
  'error.rate-limited': string;
  'error.no-subscription': string;
  'error.subscription-suspended': string;
  'error.price-changed': string;
  'error.period-ending': string;
  'error.Error.Api.Usage.NoneMatching': string;
  'error.Error.Customer.PaymentSettings.Missing': string;
  'error.Error.Customer.Billing.CappingReached': string;
  'error.Error.Subscription.NotActive': string;
  'remedy.change-plan': string;
  'remedy.register': string;
  'remedy.pay-invoice': string;
  'remedy.restart': string;
  'remedy.offers': string;
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
}

/** Every text by key: the shared ones plus those each element declares (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by each element's messages file
export interface BillingMessages extends CoreMessages {}

export type MessageKey = keyof BillingMessages;
export type Messages = BillingMessages;
export type MessageVars = Record<string, string | number>;

/**
 * Built-in texts by key, one entry per key with its text in each of {@link LOCALES}, in that
 * order: each key is written once, and a text cannot be missing from a locale.
 */
export type BuiltInTexts<K extends MessageKey> = Record<K, readonly [en: string, fr: string]>;

const catalogues: Record<Locale, Partial<BillingMessages>> = { en: {}, fr: {} };

/** The keys that start with `P`, without it. */
type KeyNames<P extends string> = MessageKey extends infer K
  ? K extends `${P}${infer Name}`
    ? Name
    : never
  : never;

/**
 * Adds built-in texts (the shared ones here, an element's own keys from its module), their keys
 * written without `prefix` when given (an element's common `meter.`, say: one that starts no
 * key does not compile).
 */
export function registerTexts<P extends string = ''>(
  texts: Partial<Record<KeyNames<P>, readonly [en: string, fr: string]>>,
  prefix: [KeyNames<P>] extends [never] ? never : P = '' as never,
): void {
  for (const [name, localized] of Object.entries(texts) as [string, readonly string[]][])
    LOCALES.forEach(
      (locale, index) => (catalogues[locale][(prefix + name) as MessageKey] = localized[index]),
    );
}

registerTexts({
  loading: ['Loading…', 'Chargement…'],
  retry: ['Try again', 'Réessayer'],
  close: ['Close', 'Fermer'],
  'error.generic': [
    'Something went wrong. Please try again.',
    'Un problème est survenu. Veuillez réessayer.',
  ],
  'error.network': [
    'Billing could not be reached. Check your connection and try again.',
    'La facturation est injoignable. Vérifiez votre connexion et réessayez.',
  ],
  'error.timeout': [
    'Billing took too long to answer. Please try again.',
    'La facturation met trop de temps à répondre. Veuillez réessayer.',
  ],
  'error.unauthenticated': [
    'Your session has ended. Sign in again to see your plan.',
    'Votre session a expiré. Reconnectez-vous pour voir votre offre.',
  ],
  'error.rate-limited': [
    'Too many requests. Wait a moment and try again.',
    'Trop de demandes. Patientez un instant puis réessayez.',
  ],
  'error.no-subscription': [
    'You do not have a subscription yet.',
    'Vous n’avez pas encore d’abonnement.',
  ],
  'error.subscription-suspended': [
    'Your subscription is suspended. Restart it to continue.',
    'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  ],
  'error.price-changed': [
    'The price has changed. Please check the new price.',
    'Le prix a changé. Vérifiez le nouveau prix.',
  ],
  'error.period-ending': [
    'Your billing period is ending. Please check the price again.',
    'Votre période de facturation se termine. Vérifiez à nouveau le prix.',
  ],
  'error.Error.Api.Usage.NoneMatching': [
    'Your plan does not include this feature.',
    'Votre offre ne comprend pas cette fonctionnalité.',
  ],
  'error.Error.Customer.PaymentSettings.Missing': [
    'Add a payment method to make this change.',
    'Ajoutez un moyen de paiement pour effectuer ce changement.',
  ],
  'error.Error.Customer.Billing.CappingReached': [
    'Some invoices are still unpaid. Settle them to continue.',
    'Des factures restent impayées. Réglez-les pour continuer.',
  ],
  'error.Error.Subscription.NotActive': [
    'Your subscription is suspended. Restart it to continue.',
    'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  ],
  'remedy.change-plan': ['Change plan', 'Changer d’offre'],
  'remedy.register': ['Add a payment method', 'Ajouter un moyen de paiement'],
  'remedy.pay-invoice': ['Settle invoices', 'Régler les factures'],
  'remedy.restart': ['Restart subscription', 'Réactiver l’abonnement'],
  'remedy.offers': ['See plans', 'Voir les offres'],
  'portal.title': ['Billing portal', 'Portail de facturation'],
  'portal.loading': ['Opening the billing portal…', 'Ouverture du portail de facturation…'],
  'portal.error': [
    'The billing portal could not be loaded.',
    'Le portail de facturation n’a pas pu être chargé.',
  ],
  'portal.unsafe': [
    'This billing address is not allowed here.',
    'Cette adresse de facturation n’est pas autorisée ici.',
  ],
  'portal.link.home': ['Manage billing', 'Gérer la facturation'],
  'portal.link.offers': ['See plans', 'Voir les offres'],
  'portal.link.subscribe': ['Subscribe', 'S’abonner'],
  'portal.link.register': ['Update payment details', 'Mettre à jour le paiement'],
  'portal.link.change-plan': ['Change plan', 'Changer d’offre'],
  'portal.link.restart': ['Restart subscription', 'Réactiver l’abonnement'],
  'portal.link.pay-invoice': ['Pay invoice', 'Payer la facture'],
} satisfies BuiltInTexts<keyof CoreMessages>);

/**
 * Adds built-in texts (an element's own keys). Page overrides given to `configureBilling`
 * still win over them.
 */
export function registerMessages(
  messages: Partial<Record<Locale, Partial<BillingMessages>>>,
): void {
  for (const locale of LOCALES) Object.assign(catalogues[locale], messages[locale]);
}

/** Maps any BCP 47 tag to a supported locale ('fr-CA' → 'fr'); English otherwise. */
export function toLocale(tag: string | null | undefined): Locale {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] as Locale;
  return LOCALES.includes(primary) ? primary : 'en';
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
    hostConnected: () =>
      (observer ??= new MutationObserver(() => host.requestUpdate())).observe(document, {
        attributeFilter: ['lang'],
        subtree: true,
      }),
    hostDisconnected: () => observer!.disconnect(),
  });
}

/** The locale of an element: from the closest `lang`, 'en' or 'fr', 'en' by default. */
export function localeOf(element: Element): Locale {
  return toLocale(langOf(element));
}

/** The tag to give Intl: the element's full `lang` ('fr-CA') when valid, else its locale. */
function intlTag(target: Element | Locale): string {
  if (typeof target === 'string') return target;
  const lang = langOf(target) ?? '';
  const locale = toLocale(lang);
  try {
    return lang.toLowerCase().startsWith(locale) ? Intl.getCanonicalLocales(lang)[0]! : locale;
  } catch {
    return locale;
  }
}

function interpolate(template: string, vars: MessageVars | undefined): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/** The text of `key` in a locale, the page's override first; undefined when it has none. */
function textOf(locale: Locale, key: string): string | undefined {
  return (
    getBillingConfig().messages[locale]?.[key as MessageKey] ??
    catalogues[locale][key as MessageKey]
  );
}

/** The text for `key` in a locale: page overrides, then built-ins, then English. */
export function messageFor(locale: Locale, key: MessageKey, vars?: MessageVars): string {
  return interpolate(textOf(locale, key) ?? textOf('en', key) ?? key, vars);
}

/** The text for `key` in the element's locale, with `{name}` placeholders filled. */
export function message(element: Element, key: MessageKey, vars?: MessageVars): string {
  return messageFor(localeOf(element), key, vars);
}

/** Whether a key has a text (lets callers fall back for open-ended keys such as error codes). */
export function hasMessage(locale: Locale, key: string): key is MessageKey {
  return textOf(locale, key) !== undefined;
}

/**
 * The text of an open-ended key (an error code's, a portal page's) in the element's locale when
 * it has one, else the fallback's.
 */
export function messageOr(element: Element, key: string, fallback: MessageKey): string {
  return message(element, hasMessage(localeOf(element), key) ? key : fallback);
}

/**
 * Proxy codes worded as the browser's own: to a customer, billing was slow or out of reach
 * whether the proxy or the service behind it was.
 */
const SAME_TEXT_AS = new Map([
  ['upstream-timeout', 'timeout'],
  ['upstream-unavailable', 'network'],
]);

/** The text of an error code (`error.<code>`) in the element's locale, else the fallback's. */
export function errorMessage(element: Element, code: string, fallback: MessageKey): string {
  return messageOr(element, `error.${SAME_TEXT_AS.get(code) ?? code}`, fallback);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Formats a number for the element's locale (cached Intl.NumberFormat). */
export function formatNumber(
  target: Element | Locale,
  value: number,
  options: Intl.NumberFormatOptions = {},
): string {
  const tag = intlTag(target);
  const cacheKey = `${tag}|${JSON.stringify(options)}`;
  let format = numberFormats.get(cacheKey);
  if (!format) {
    format = new Intl.NumberFormat(tag, options);
    numberFormats.set(cacheKey, format);
  }
  return format.format(value);
}

/** Formats an amount in hundredths of a currency unit. */
export function formatMoney(target: Element | Locale, amount: number, currency: string): string {
  return formatNumber(target, amount / 100, { style: 'currency', currency });
}

/** Formats a ratio (0.8 → "80 %" in French, "80%" in English). */
export function formatPercent(target: Element | Locale, ratio: number): string {
  return formatNumber(target, ratio, { style: 'percent', maximumFractionDigits: 0 });
}

/** Formats an ISO timestamp as a date; returns '' for an unreadable value. */
export function formatDate(
  target: Element | Locale,
  iso: string | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
): string {
  // Given a Date, the constructor copies its time value exactly.
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(intlTag(target), { timeZone: 'UTC', ...options }).format(date);
}
