import { escapeHtml, raw, type Markup } from './html.js';
import type { DemoLanguage } from './layout.js';

// The demo app's own words (its shell, headings and notes), in each language its pages are
// shown in: a French page is French throughout, the elements' texts and the host's alike. The
// pages' `{{t.…}}` slots take them; the embed snippets page keeps its English, as code does.
// The script-tag page has its own words (demo/site/texts.ts), in the same languages.

const en = {
  skip: 'Skip to content',
  'nav.main': 'Main',
  'nav.workspace': 'Workspace',
  'nav.developers': 'Developers',
  'nav.overview': 'Overview',
  'nav.plans': 'Plans',
  'nav.billing': 'Billing',
  'nav.portal': 'Customer portal',
  'nav.embed': 'Embed snippets',
  'nav.site': 'Script-tag page',
  'sidebar.foot': 'A demo of billing-elements on the billing sandbox.',
  'top.workspace': 'Workspace',
  'top.team': '{name}’s team',
  'sign-out': 'Sign out',
  scenario: 'Demo scenario',
  'scenario.switch': 'Switch customer',
  'overview.lede': 'Your team’s workspace and what your plan includes.',
  'overview.manage': 'Manage billing',
  'overview.week': 'This week',
  'overview.users': 'Active users, 7 days',
  'overview.users.value': '1,284',
  'overview.users.trend': '+8.2% vs last week',
  'overview.events': 'Events tracked',
  'overview.events.value': '2.41 M',
  'overview.events.trend': '+3.9% vs last week',
  'overview.dashboards': 'Dashboards shared',
  'overview.dashboards.trend': '+2 this week',
  'overview.usage': 'Plan usage',
  'overview.simulate': 'Simulate back-end usage: +250 API calls',
  'overview.seats': 'Add seats',
  'overview.included': 'Features and add-ons',
  'overview.support': 'Priority support',
  'overview.support.note': 'Answers within four business hours.',
  'overview.sso': 'SSO settings',
  'overview.sso.note': 'Let your team sign in with your identity provider.',
  'overview.sso.on': 'Single sign-on is on for {domain} through your SAML identity provider.',
  'overview.sso.manage': 'Manage identity providers',
  'plans.lede':
    'Compare plans and switch in a click. You see and confirm the price before anything changes; a change that lowers your price waits for the end of your billing period.',
  'plans.available': 'Available plans',
  'billing.lede': 'Your plan, invoices and seats, managed without leaving Northwind.',
  'billing.subscription': 'Subscription',
  'billing.invoices': 'Invoices',
  'billing.seats': 'Seats',
  'billing.portal.ask': 'Prefer the billing service’s own pages?',
  'billing.portal.open': 'Open the customer portal',
  'portal.lede':
    'The billing service’s own portal, embedded with {element}: the same plan, payment method and invoices, in its pages.',
  'portal.home': 'Portal home',
};

export type DemoTextKey = keyof typeof en;

const fr: Record<DemoTextKey, string> = {
  skip: 'Aller au contenu',
  'nav.main': 'Principale',
  'nav.workspace': 'Espace de travail',
  'nav.developers': 'Développeurs',
  'nav.overview': 'Vue d’ensemble',
  'nav.plans': 'Offres',
  'nav.billing': 'Facturation',
  'nav.portal': 'Portail client',
  'nav.embed': 'Extraits d’intégration',
  'nav.site': 'Page à balise script',
  'sidebar.foot': 'Une démo de billing-elements sur le bac à sable de facturation.',
  'top.workspace': 'Espace de travail',
  'top.team': 'Équipe de {name}',
  'sign-out': 'Se déconnecter',
  scenario: 'Scénario de démo',
  'scenario.switch': 'Changer de client',
  'overview.lede': 'L’espace de travail de votre équipe et ce que comprend votre offre.',
  'overview.manage': 'Gérer la facturation',
  'overview.week': 'Cette semaine',
  'overview.users': 'Utilisateurs actifs, 7 jours',
  'overview.users.value': '1\u202f284',
  'overview.users.trend': '+8,2\u00a0% par rapport à la semaine dernière',
  'overview.events': 'Événements suivis',
  'overview.events.value': '2,41\u00a0M',
  'overview.events.trend': '+3,9\u00a0% par rapport à la semaine dernière',
  'overview.dashboards': 'Tableaux de bord partagés',
  'overview.dashboards.trend': '+2 cette semaine',
  'overview.usage': 'Utilisation de l’offre',
  'overview.simulate': 'Simuler l’usage côté serveur\u00a0: +250 appels API',
  'overview.seats': 'Ajouter des sièges',
  'overview.included': 'Fonctionnalités et options',
  'overview.support': 'Support prioritaire',
  'overview.support.note': 'Réponse sous quatre heures ouvrées.',
  'overview.sso': 'Paramètres SSO',
  'overview.sso.note': 'Votre équipe se connecte avec votre fournisseur d’identité.',
  'overview.sso.on':
    'L’authentification unique est active pour {domain} avec votre fournisseur d’identité SAML.',
  'overview.sso.manage': 'Gérer les fournisseurs d’identité',
  'plans.lede':
    'Comparez les offres et changez en un clic. Vous voyez et confirmez le prix avant tout changement\u202f; un changement qui baisse votre prix attend la fin de votre période de facturation.',
  'plans.available': 'Offres disponibles',
  'billing.lede': 'Votre offre, vos factures et vos sièges, gérés sans quitter Northwind.',
  'billing.subscription': 'Abonnement',
  'billing.invoices': 'Factures',
  'billing.seats': 'Sièges',
  'billing.portal.ask': 'Vous préférez les pages du service de facturation\u202f?',
  'billing.portal.open': 'Ouvrir le portail client',
  'portal.lede':
    'Le portail propre au service de facturation, intégré avec {element}\u00a0: la même offre, le même moyen de paiement et les mêmes factures, dans ses pages.',
  'portal.home': 'Accueil du portail',
};

export const DEMO_TEXTS: Record<DemoLanguage, Record<DemoTextKey, string>> = { en, fr };

/**
 * The pages' `{{t.key}}` slots in `language`; the SSO sentence names its domain in bold, and the
 * portal page's lede names its element as code.
 */
export function textSlots(language: DemoLanguage): Record<string, string | Markup> {
  const slots: Record<string, string | Markup> = Object.fromEntries(
    Object.entries(DEMO_TEXTS[language]).map(([key, text]) => [`t.${key}`, text]),
  );
  slots['t.overview.sso.on'] = raw(
    escapeHtml(DEMO_TEXTS[language]['overview.sso.on']).replace(
      '{domain}',
      '<strong>northwind.example</strong>',
    ),
  );
  slots['t.portal.lede'] = raw(
    escapeHtml(DEMO_TEXTS[language]['portal.lede']).replace(
      '{element}',
      '<code>&lt;billing-portal&gt;</code>',
    ),
  );
  return slots;
}
