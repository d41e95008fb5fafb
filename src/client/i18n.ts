import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getBillingConfig } from './config.js';
import { watchLang } from './lang-observer.js';
import type { sharedTexts } from './shared-texts.js';
import { LANGUAGES } from '../contract/constants.js';

export { LANGUAGES };
/**
 * A language the elements speak (those of the service's texts). English is built in; the others
 * load on demand.
 */
export type Language = (typeof LANGUAGES)[number];
/** A language whose texts come apart from the code, when a page first asks for it. */
export type OtherLanguage = Exclude<Language, 'en'>;

/**
 * A table of built-in texts in English, by full key: dotted and kebab-case
 * (`meter.not-in-plan`), an error's key being `error.` and its code as the proxy spells it.
 * `{name}` placeholders are replaced by the values given to {@link message}. Each table is
 * declared `as const satisfies TextTable`, and its keys type {@link BillingMessages}.
 */
export type TextTable = Readonly<Record<string, string>>;

/** The keys of a table as the messages interface declares them. */
export type TextsOf<Table extends TextTable> = Record<keyof Table, string>;

/** A table in another language: every key of the English table, and no other. */
export type Translation<Table extends TextTable> = { readonly [Key in keyof Table]: string };

/**
 * Another language's table: given as it is, or a function that loads it (a dynamic import of
 * its module, whose default export it is).
 */
export type TranslationSource<Table extends TextTable> =
  Translation<Table> | (() => Promise<{ readonly default: Translation<Table> }>);

/**
 * Every text by key: the shared ones (shared-texts.ts) plus those each element declares in its
 * `messages.ts` (declaration merging, from its English table) and registers with
 * {@link registerTexts}.
 */
export interface BillingMessages extends TextsOf<typeof sharedTexts> {}

export type MessageKey = keyof BillingMessages;
export type MessageVars = Record<string, string | number>;

/** Built-in texts by language and key, as registered so far. */
const catalogues: Record<Language, Record<string, string>> = { en: {}, fr: {} };

/** The loaders of each other language not run yet: run when a page first asks for it. */
const loaders: Record<OtherLanguage, (() => Promise<{ readonly default: TextTable }>)[]> = {
  fr: [],
};

/** The other languages a page has asked for: a table registered later loads at once. */
const wanted = new Set<OtherLanguage>();

/** The connected elements that follow their language (see {@link followLang}). */
const followers = new Set<ReactiveControllerHost & Element>();

/** Renders every following element again: a `lang` changed, or a language's texts arrived. */
const renderFollowers = () => {
  for (const host of followers) host.requestUpdate();
};

/** Loads in flight, by language: what {@link loadLanguage} waits for. */
const loading: Record<OtherLanguage, Promise<void>> = { fr: Promise.resolve() };

/**
 * Adds built-in texts: the shared ones, an element's own when its class is defined. The English
 * table is the source of truth: each other language gives every one of its keys, as a table or
 * as a function that loads it when a page first shows that language (until then, the English
 * text). Page overrides given to `configureBilling` still win over them.
 *
 * @example
 * // acme-texts.fr.ts: export default { 'acme.title': 'Sièges' }
 * const french = () => import(`./acme-texts.fr.js`);
 * registerTexts({ 'acme.title': 'Seats' } as const, { fr: french });
 */
export function registerTexts<Table extends TextTable>(
  english: Table,
  translations: { readonly [Other in OtherLanguage]: TranslationSource<Table> },
): void {
  Object.assign(catalogues.en, english);
  for (const language of Object.keys(loaders) as OtherLanguage[]) {
    const source: TranslationSource<Table> = translations[language];
    if (typeof source !== 'function') {
      Object.assign(catalogues[language], source);
      continue;
    }
    loaders[language].push(source);
    if (wanted.has(language)) void loadLanguage(language);
  }
}

/**
 * Loads the built-in texts of a language (nothing to do for English), then renders every
 * connected element again. The elements ask for their language themselves; a page, or a server
 * rendering in French, may call it first so that the first render is in that language.
 */
export function loadLanguage(language: Language): Promise<void> {
  if (language === 'en') return Promise.resolve();
  wanted.add(language);
  const batch = loaders[language].splice(0);
  if (batch.length === 0) return loading[language];
  const loaded = Promise.all(
    batch.map((load) =>
      load().then(
        (module) => {
          Object.assign(catalogues[language], module.default);
        },
        (error: unknown) => {
          // Tried again at the next render; meanwhile the texts stay in English.
          loaders[language].push(load);
          console.warn(`[billing-elements] the ${language} texts could not be loaded.`, error);
        },
      ),
    ),
  ).then(renderFollowers);
  loading[language] = Promise.all([loading[language], loaded]).then(() => {});
  return loading[language];
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

let stopWatching: (() => void) | undefined;

/**
 * Makes an element speak its language: before each render it asks for the language of its
 * closest `lang` (loaded on demand; English meanwhile), and while it is connected it renders
 * again whenever a `lang` attribute changes in the document (the host app switching
 * languages) or its language's texts arrive. One observer serves every element of the page.
 */
export function followLang(host: ReactiveControllerHost & Element): void {
  const controller: ReactiveController = {
    hostConnected() {
      followers.add(host);
      stopWatching ??= watchLang(renderFollowers);
    },
    hostDisconnected() {
      followers.delete(host);
      if (followers.size === 0) {
        stopWatching?.();
        stopWatching = undefined;
      }
    },
    hostUpdate() {
      void loadLanguage(languageOf(host));
    },
  };
  host.addController(controller);
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
  return getBillingConfig().messages[language]?.[key as MessageKey] ?? catalogues[language][key];
}

/** The text for `key` in a language: page overrides, then built-ins, then English. */
export function messageFor(language: Language, key: MessageKey, vars?: MessageVars): string {
  return interpolate(textOf(language, key) ?? textOf('en', key) ?? key, vars);
}

/** The text for `key` in the element's language, with `{name}` placeholders filled. */
export function message(element: Element, key: MessageKey, vars?: MessageVars): string {
  return messageFor(languageOf(element), key, vars);
}

/**
 * Whether a key has a text (lets callers fall back for open-ended keys such as error codes). A
 * built-in key has one in every language, even before that language's texts have arrived.
 */
export function hasMessage(language: Language, key: string): key is MessageKey {
  return textOf(language, key) !== undefined || Object.hasOwn(catalogues.en, key);
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
