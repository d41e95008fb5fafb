import { fill, raw } from '../html.js';
import { DEMO_LANGUAGES, type DemoLanguage } from '../layout.js';

// The words of the plain script-tag page (demo/site/index.html), in each language the app's
// pages are shown in: the app's language switch reaches this page too, and the elements on it
// follow its `lang` as on any page.

const en = {
  title: 'Your plan · Northwind Help Center',
  'nav.label': 'Help Center',
  'nav.plan': 'Your plan',
  'nav.app': 'Open the app',
  'nav.switch': 'Switch account',
  heading: 'Your plan',
  'intro.before':
    'This page is plain HTML, the way a help center or a site builder serves it: no framework and no build, only',
  'intro.after':
    'and the elements, configured with attributes. It reads the same sign-in as the app:',
  'intro.sign-in': 'sign in',
  'intro.end': 'first.',
  'usage.heading': 'Usage this month',
  'buy.heading': 'Add projects',
  'buy.note': 'Each project beyond your plan is billed monthly. You confirm the price first.',
  'buy.label': 'projects',
  'buy.label-one': 'project',
  'portal.heading': 'Invoices and payment',
  footer: 'Northwind Analytics · a demo of billing-elements',
};

const fr: Record<keyof typeof en, string> = {
  title: 'Votre offre · Centre d’aide Northwind',
  'nav.label': 'Centre d’aide',
  'nav.plan': 'Votre offre',
  'nav.app': 'Ouvrir l’application',
  'nav.switch': 'Changer de compte',
  heading: 'Votre offre',
  'intro.before':
    'Cette page est du HTML simple, comme la sert un centre d’aide ou un créateur de sites\u00a0: ni framework ni compilation, seulement',
  'intro.after':
    'et les éléments, configurés par leurs attributs. Elle lit la même connexion que l’application\u00a0:',
  'intro.sign-in': 'connectez-vous',
  'intro.end': 'd’abord.',
  'usage.heading': 'Consommation du mois',
  'buy.heading': 'Ajouter des projets',
  'buy.note':
    'Chaque projet au-delà de votre offre est facturé chaque mois. Vous confirmez d’abord le prix.',
  'buy.label': 'projets',
  'buy.label-one': 'projet',
  'portal.heading': 'Factures et paiement',
  footer: 'Northwind Analytics · une démo de billing-elements',
};

const SITE_TEXTS: Record<DemoLanguage, Record<keyof typeof en, string>> = { en, fr };

/** The script-tag page in `language`, with a link to the other language. */
export function sitePage(template: string, language: DemoLanguage): string {
  const other: DemoLanguage = language === 'en' ? 'fr' : 'en';
  return fill(template, {
    ...Object.fromEntries(
      Object.entries(SITE_TEXTS[language]).map(([key, text]) => [`t.${key}`, text]),
    ),
    lang: language,
    otherLanguage: other,
    otherLanguageName: DEMO_LANGUAGES[other].name,
    otherLanguageHint: DEMO_LANGUAGES[other].hint,
    script: raw('<code>&lt;script src="/billing-elements.js"&gt;</code>'),
  });
}
