import type { SandboxContext } from '../context.js';
import type { Language } from '../fixtures/schema.js';
import { readForm, type Reply } from '../http/io.js';
import type { RequestContext, Router } from '../http/router.js';
import { fromAcceptLanguage, isLanguage, supportedLanguage } from '../i18n.js';
import { HOSTED_PAGES, type HostedPage } from '../tokens.js';
import { notFoundPage, PageContext } from './page-context.js';
import {
  chargePage,
  chargeSubmit,
  invoicePage,
  invoicesPage,
  portalPage,
  registerPage,
  registerSubmit,
} from './pages-account.js';
import {
  offersPage,
  restartPage,
  restartSubmit,
  subscribePage,
  subscribeSubmit,
  upgradePage,
  upgradeSubmit,
} from './pages-plan.js';

type View = (pc: PageContext) => Reply | null;
type Submit = (pc: PageContext, form: URLSearchParams) => Reply | null;

const PAGES: Record<HostedPage, { view: View; submit?: Submit }> = {
  portal: { view: portalPage },
  offers: { view: offersPage },
  subscribe: { view: subscribePage, submit: subscribeSubmit },
  register: { view: registerPage, submit: registerSubmit },
  upgrade: { view: upgradePage, submit: upgradeSubmit },
  conclude: { view: upgradePage, submit: upgradeSubmit },
  restart: { view: restartPage, submit: restartSubmit },
  charge: { view: chargePage, submit: chargeSubmit },
  invoice: { view: invoicePage },
  invoices: { view: invoicesPage },
};

function pageLanguage(
  ctx: SandboxContext,
  rc: RequestContext,
  customerLanguage: string | null,
): Language {
  const param = rc.query.get('lang');
  if (isLanguage(param)) return param;
  const header = rc.req.headers['accept-language'];
  return (
    fromAcceptLanguage(header) ??
    supportedLanguage(customerLanguage) ??
    ctx.catalog.business.defaultLanguage
  );
}

/** `${hostedUrl}/<page>/<token>`: the token alone authorises the page (no other credential). */
export function registerHostedRoutes(router: Router, ctx: SandboxContext): void {
  const open = (rc: RequestContext): PageContext | Reply => {
    const fallbackLang = pageLanguage(ctx, rc, null);
    const missing = notFoundPage(fallbackLang, ctx.catalog.business.name);
    const page = rc.params.page as HostedPage;
    const target = HOSTED_PAGES.includes(page)
      ? ctx.tokens.open('hosted', rc.params.token ?? '')
      : null;
    if (!target || target.page !== page) return missing;
    const customer = ctx.store.customerById(target.c);
    if (!customer) return missing;
    return new PageContext(ctx, rc, target, customer, pageLanguage(ctx, rc, customer.language));
  };

  router.add('GET', '/hosted/{page}/{token}', (rc) => {
    const pc = open(rc);
    if (!(pc instanceof PageContext)) return pc;
    return PAGES[pc.target.page].view(pc) ?? notFoundPage(pc.lang, ctx.catalog.business.name);
  });

  router.add('POST', '/hosted/{page}/{token}', async (rc) => {
    const pc = open(rc);
    if (!(pc instanceof PageContext)) return pc;
    const form = await readForm(rc.req);
    const { submit } = PAGES[pc.target.page];
    if (!submit) return { status: 405, body: 'Method not allowed', headers: { allow: 'GET' } };
    return submit(pc, form) ?? notFoundPage(pc.lang, ctx.catalog.business.name);
  });
}
