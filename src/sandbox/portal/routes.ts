import type { SandboxContext } from '../context.js';
import { hostedHref } from '../context.js';
import { localize } from '../catalog.js';
import { htmlReply } from '../http/io.js';
import { json, type Reply } from '../http/io.js';
import type { Router } from '../http/router.js';
import { fromAcceptLanguage, isLanguage, supportedLanguage } from '../i18n.js';
import { html, scriptJson } from '../hosted/html.js';
import { page as layout } from '../hosted/layout.js';
import { MESSAGES } from '../hosted/messages.js';
import { lookParams } from '../hosted/look.js';
import { portalHash, safeEqual, type HostedPage } from '../tokens.js';
import { portalScriptSource } from './script.js';

const CORS = { 'access-control-allow-origin': '*' };

const PAGE_TITLES: Record<HostedPage, keyof (typeof MESSAGES)['en']> = {
  portal: 'portalTitle',
  offers: 'offersTitle',
  subscribe: 'subscribeTitle',
  register: 'registerTitle',
  upgrade: 'upgradeTitle',
  conclude: 'concludeTitle',
  restart: 'restartTitle',
  charge: 'chargeTitle',
  invoice: 'invoiceTitle',
  invoices: 'invoicesTitle',
};

/** The title of a page: subscribing to a chosen plan is "Subscribe", as the elements say it. */
function pageTitle(target: { page: HostedPage; o?: string | undefined }) {
  return target.page === 'subscribe' && target.o !== undefined
    ? 'subscribe'
    : PAGE_TITLES[target.page];
}

export function registerPortalRoutes(router: Router, ctx: SandboxContext): void {
  router.add('GET', '/portal.js', () => ({
    status: 200,
    body: portalScriptSource(ctx.urls.url),
    contentType: 'text/javascript; charset=utf-8',
    headers: { ...CORS, 'cache-control': 'no-cache' },
  }));

  // Checks what ServicePortal.open received and answers the hosted page to show.
  router.add('GET', '/portal/open', (request): Reply => {
    const q = request.query;
    const fail = (status: number, code: string, message: string) =>
      json(status, { code, message }, CORS);
    const customerRef = q.get('customer_ref') ?? '';
    const hash = (q.get('hash') ?? '').toLowerCase();
    if (q.get('business_id') !== String(ctx.catalog.business.id)) {
      return fail(
        404,
        'unknown-business',
        'The customer portal could not be opened: unknown business.',
      );
    }
    const segmentRef = q.get('segment_ref') ?? '';
    if (!ctx.catalog.segments.has(segmentRef)) {
      return fail(
        404,
        'unknown-segment',
        'The customer portal could not be opened: unknown segment.',
      );
    }
    if (
      !customerRef ||
      !safeEqual(hash, portalHash(customerRef, ctx.catalog.business.portalSecret))
    ) {
      return fail(
        403,
        'invalid-hash',
        'The customer portal could not be opened: the signature (hash) is not valid.',
      );
    }
    const customer = ctx.store.findCustomer(customerRef);
    // A customer belongs to one segment: another segment's portal does not know them.
    if (!customer || customer.segment !== segmentRef)
      return fail(
        404,
        'unknown-customer',
        'The customer portal could not be opened: unknown customer.',
      );
    const target = ctx.tokens.open('query', q.get('query') ?? '');
    if (!target)
      return fail(
        400,
        'invalid-query',
        'The customer portal could not be opened: the link is invalid or was altered.',
      );
    if (target.c !== customer.id) {
      return fail(
        403,
        'customer-mismatch',
        'The customer portal could not be opened: this link belongs to another customer.',
      );
    }
    const langParam = q.get('lang');
    const lang = isLanguage(langParam)
      ? langParam
      : (supportedLanguage(customer.language) ??
        fromAcceptLanguage(request.req.headers['accept-language']) ??
        ctx.catalog.business.defaultLanguage);
    // The page's language and look go to the hosted page, which keeps them on its links.
    const look = lookParams(q);
    if (isLanguage(langParam)) look.set('lang', langParam);
    const href = hostedHref(ctx, target);
    return json(
      200,
      {
        url: look.size > 0 ? `${href}?${look}` : href,
        page: target.page,
        title: `${MESSAGES[lang][pageTitle(target)]} · ${ctx.catalog.business.name}`,
      },
      CORS,
    );
  });

  // Stand-in for the business application at its installation URL: opens ?pa_query= workflows.
  router.add('GET', '/insite', (request) => {
    const langParam = request.query.get('lang');
    const lang = isLanguage(langParam)
      ? langParam
      : (fromAcceptLanguage(request.req.headers['accept-language']) ??
        ctx.catalog.business.defaultLanguage);
    const texts = MESSAGES[lang];
    const query = request.query.get('pa_query') ?? '';
    const target = query ? ctx.tokens.open('query', query) : null;
    const customer = target ? ctx.store.customerById(target.c) : undefined;
    const body = customer
      ? html`<h1>${texts.installation}</h1>
          <p class="lead">${texts.installationLead}</p>
          <div id="service_portal"></div>
          <script src="${ctx.urls.portalScriptUrl}"></script>
          <script>
            ServicePortal.open(
              ${scriptJson({
                business_id: ctx.catalog.business.id,
                segment_ref: customer.segment,
                customer_ref: customer.reference,
                query,
                hash: portalHash(customer.reference, ctx.catalog.business.portalSecret),
              })},
            );
          </script>`
      : html`<h1>${texts.installation}</h1>
          <div class="alert error" role="alert"><p>${texts.errorLead}</p></div>`;
    return htmlReply(
      customer ? 200 : 404,
      layout({ lang, title: texts.installation, businessName: ctx.catalog.business.name, body }),
    );
  });

  // A small index of the sandbox: where things are, and each customer's portal.
  router.add('GET', '/', () => {
    const { business, segment } = ctx.catalog;
    const body = html`<h1>Billing service sandbox</h1>
      <div class="card">
        <dl>
          <dt>API</dt>
          <dd><code>${ctx.urls.url}/v1</code> (HTTP Basic: agent key / API key)</dd>
          <dt>Hosted pages</dt>
          <dd><code>${ctx.urls.hostedUrl}</code></dd>
          <dt>Portal script</dt>
          <dd><code>${ctx.urls.portalScriptUrl}</code></dd>
          <dt>Business</dt>
          <dd>
            ${business.id} · segment <code>${segment.reference}</code> ·
            ${localize(segment.title, 'en')}
          </dd>
        </dl>
      </div>
      <div class="card">
        <table>
          <caption>
            Customers
          </caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Name</th>
              <th scope="col">Portal</th>
            </tr>
          </thead>
          <tbody>
            ${ctx.store.state.customers.slice(0, 50).map(
              (c) =>
                html`<tr>
                  <td><code>${c.reference}</code></td>
                  <td>${c.name}</td>
                  <td>
                    <a href="${hostedHref(ctx, { page: 'portal', c: c.id })}"
                      >Open<span class="visually-hidden"> the portal of ${c.name}</span></a
                    >
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
    return htmlReply(
      200,
      layout({ lang: 'en', title: 'Sandbox', businessName: business.name, body }),
    );
  });
}
