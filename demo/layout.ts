import type { DemoCustomer } from './customers.js';
import { escapeHtml, fill, raw } from './html.js';
import { DEMO_TEXTS, textSlots, type DemoTextKey } from './texts.js';

// The shell every signed-in page shares: sidebar, header with the signed-in customer, the
// scenario note. Rendered on the server so the page never flashes an anonymous header.

export type AppPage = 'overview' | 'plans' | 'billing' | 'portal' | 'embed';

interface NavItem {
  href: string;
  label: DemoTextKey;
  icon: string;
  page?: AppPage;
}

const ICONS = {
  overview:
    '<path d="M3 3h6v8H3zM11 3h6v5h-6zM11 10h6v7h-6zM3 13h6v4H3z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/>',
  plans:
    '<path d="M3.5 5.5h13M3.5 10h13M3.5 14.5h8" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/><circle cx="15" cy="14.5" r="1.75" fill="none" stroke="currentColor" stroke-width="1.5"/>',
  billing:
    '<rect x="2.5" y="4.5" width="15" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M2.5 8h15M5.5 12.5h3" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>',
  portal:
    '<rect x="2.5" y="3.5" width="15" height="13" rx="2" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M2.5 7.5h15M5.5 10.5h9M5.5 13.5h5" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>',
  embed:
    '<path d="M7 6 3 10l4 4M13 6l4 4-4 4M11.5 4.5l-3 11" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>',
  site: '<circle cx="10" cy="10" r="7.25" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M2.75 10h14.5M10 2.75c2 2 3 4.5 3 7.25s-1 5.25-3 7.25c-2-2-3-4.5-3-7.25s1-5.25 3-7.25z" fill="none" stroke="currentColor" stroke-width="1.5"/>',
};

const WORKSPACE_NAV: NavItem[] = [
  { href: '/app/', label: 'nav.overview', icon: ICONS.overview, page: 'overview' },
  { href: '/app/plans', label: 'nav.plans', icon: ICONS.plans, page: 'plans' },
  { href: '/app/billing', label: 'nav.billing', icon: ICONS.billing, page: 'billing' },
  { href: '/app/portal', label: 'nav.portal', icon: ICONS.portal, page: 'portal' },
];
const DEVELOPER_NAV: NavItem[] = [
  { href: '/app/embed', label: 'nav.embed', icon: ICONS.embed, page: 'embed' },
  { href: '/site/', label: 'nav.site', icon: ICONS.site },
];

export const LOGO = `<svg class="logo-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="var(--accent)"/><path d="M9 22V10l14 12V10" fill="none" stroke="var(--on-accent)" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

function navList(items: NavItem[], current: AppPage, language: DemoLanguage): string {
  return items
    .map((item) => {
      const isCurrent = item.page === current;
      return `<li><a href="${item.href}"${isCurrent ? ' aria-current="page"' : ''}><svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">${item.icon}</svg><span>${escapeHtml(DEMO_TEXTS[language][item.label])}</span></a></li>`;
    })
    .join('');
}

export function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : name.slice(0, 2);
  return letters.toUpperCase();
}

const SHELL = `<!doctype html>
<html lang="{{lang}}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>{{title}} · Northwind Analytics</title>
    <link rel="icon" href="/demo/assets/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/demo/src/styles.css" />
    <!-- Vite's dev server loads Lit's development build, whose checks catch mistakes while the
         elements are worked on. Its banner "Lit is in dev mode" is silenced: in a demo it reads
         as if the package shipped it, and the package's builds use Lit's production build. -->
    <script>(globalThis.litIssuedWarnings ??= new Set()).add('dev-mode');</script>
    <script type="module" src="{{script}}"></script>
  </head>
  <body class="app" data-customer="{{reference}}">
    <a class="skip-link" href="#main">{{t.skip}}</a>
    <div class="shell">
      <aside class="sidebar">
        <a class="brand" href="/app/">{{logo}}<span>Northwind <span class="brand-light">Analytics</span></span></a>
        <nav aria-label="{{t.nav.main}}">
          <p class="nav-heading" id="nav-workspace">{{t.nav.workspace}}</p>
          <ul aria-labelledby="nav-workspace">{{workspaceNav}}</ul>
          <p class="nav-heading" id="nav-developers">{{t.nav.developers}}</p>
          <ul aria-labelledby="nav-developers">{{developerNav}}</ul>
        </nav>
        <p class="sidebar-foot">{{t.sidebar.foot}}</p>
      </aside>
      <div class="workspace">
        <header class="topbar">
          <p class="topbar-org"><span class="topbar-label">{{t.top.workspace}}</span> {{team}}</p>
          <div class="account">
            <a class="button quiet language-switch" href="?lang={{otherLanguage}}" hreflang="{{otherLanguage}}" lang="{{otherLanguage}}" title="{{otherLanguageHint}}">{{otherLanguageName}}</a>
            <span class="plan" data-plan hidden></span>
            <span class="avatar" aria-hidden="true">{{initials}}</span>
            <span class="who"><span class="who-name">{{name}}</span><span class="who-email">{{email}}</span></span>
            <form method="post" action="/session/sign-out">
              <button class="button quiet" type="submit">{{t.sign-out}}</button>
            </form>
          </div>
        </header>
        <main id="main" tabindex="-1">
          <div class="scenario tone-{{tone}}" role="note" aria-label="{{t.scenario}}" data-scenario="{{startsAs}}">
            <p><span class="tag tone-{{tone}}">{{label}}</span> <strong>{{situation}}</strong> {{tryThis}}</p>
            <a href="/">{{t.scenario.switch}}</a>
          </div>
          {{content}}
        </main>
      </div>
    </div>
  </body>
</html>
`;

/**
 * The languages the demo's pages can be shown in. The elements follow the page's `lang`, and
 * so do the demo app's own words (texts.ts).
 */
export const DEMO_LANGUAGES = {
  en: { name: 'English', hint: 'Show the billing elements in English' },
  fr: { name: 'Français', hint: 'Afficher les éléments de facturation en français' },
} as const;
export type DemoLanguage = keyof typeof DEMO_LANGUAGES;

export function isDemoLanguage(value: string | null | undefined): value is DemoLanguage {
  return value === 'en' || value === 'fr';
}

export interface AppPageOptions {
  page: AppPage;
  /** The page's `lang`, which the elements and the page's own words speak. */
  language: DemoLanguage;
  customer: DemoCustomer;
  /** The page's own markup, inside <main>. */
  content: string;
  /** The page's module script. */
  script: string;
}

export function renderAppPage(options: AppPageOptions): string {
  const { customer, language } = options;
  const other: DemoLanguage = language === 'en' ? 'fr' : 'en';
  const texts = DEMO_TEXTS[language];
  const scenario = language === 'fr' ? customer.fr : customer;
  const firstName = customer.name.split(/\s+/)[0] ?? customer.name;
  return fill(SHELL, {
    ...textSlots(language),
    lang: language,
    otherLanguage: other,
    otherLanguageName: DEMO_LANGUAGES[other].name,
    otherLanguageHint: DEMO_LANGUAGES[other].hint,
    title: texts[`nav.${options.page}`],
    script: options.script,
    reference: customer.reference,
    logo: raw(LOGO),
    workspaceNav: raw(navList(WORKSPACE_NAV, options.page, language)),
    developerNav: raw(navList(DEVELOPER_NAV, options.page, language)),
    name: customer.name,
    team: texts['top.team'].replace('{name}', firstName),
    email: customer.email,
    initials: initials(customer.name),
    tone: customer.tone,
    label: scenario.label,
    situation: scenario.situation,
    tryThis: scenario.tryThis,
    startsAs: customer.startsAs,
    content: raw(options.content),
  });
}
