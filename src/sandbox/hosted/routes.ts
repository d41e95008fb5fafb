import type { SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
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

type View = (page: PageContext) => Reply | null;
type Submit = (page: PageContext, form: URLSearchParams) => Reply | null;

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
  request: RequestContext,
  customerLanguage: string | null,
): Language {
  const param = request.query.get('lang');
  if (isLanguage(param)) return param;
  const header = request.req.headers['accept-language'];
  return (
    fromAcceptLanguage(header) ??
    supportedLanguage(customerLanguage) ??
    ctx.catalog.business.defaultLanguage
  );
}

/** `${hostedUrl}/<page>/<token>`: the token alone authorises the page (no other credential). */
export function registerHostedRoutes(router: Router, ctx: SandboxContext): void {
  const open = (request: RequestContext): PageContext | Reply => {
    const fallbackLang = pageLanguage(ctx, request, null);
    const missing = notFoundPage(fallbackLang, ctx.catalog.business.name);
    const page = request.params.page as HostedPage;
    const target = HOSTED_PAGES.includes(page)
      ? ctx.tokens.open('hosted', request.params.token ?? '')
      : null;
    if (!target || target.page !== page) return missing;
    const customer = ctx.store.customerById(target.c);
    if (!customer) return missing;
    return new PageContext(
      ctx,
      request,
      target,
      customer,
      pageLanguage(ctx, request, customer.language),
    );
  };

  router.add('GET', '/hosted/{page}/{token}', (request) => {
    const page = open(request);
    if (!(page instanceof PageContext)) return page;
    return PAGES[page.target.page].view(page) ?? notFoundPage(page.lang, ctx.catalog.business.name);
  });

  router.add('POST', '/hosted/{page}/{token}', async (request) => {
    const page = open(request);
    if (!(page instanceof PageContext)) return page;
    const form = await readForm(request.req);
    const { submit } = PAGES[page.target.page];
    if (!submit) return { status: 405, body: 'Method not allowed', headers: { allow: 'GET' } };
    return submit(page, form) ?? notFoundPage(page.lang, ctx.catalog.business.name);
  });
}
