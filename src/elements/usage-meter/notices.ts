import { css, html, nothing, type TemplateResult } from 'lit';
import type { BillingError } from '../../client/errors.js';
import { errorMessage, formatNumber, message, type MessageKey } from '../../client/i18n.js';
import { getBillingConfig } from '../../client/config.js';
import { remedyFor } from '../../client/portal.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import { httpUrl } from '../../client/safe-url.js';
import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { Usage } from '../../contract/resources.js';
import { openRemedy, reloadButton, remedyLabel, type RemedyHost } from '../shared/remedy.js';
import { planIncluding, type SuggestedPlan } from '../shared/suggested-plan.js';

// The rule of one call to action per region, which only these states need.
export { CallToAction } from '../shared/call-to-action.js';

// What a meter shows instead of figures: a failure, signed out, unavailable, no subscription,
// a plan whose checkout is not complete, a feature the plan lacks (and the integrator's console
// line when the feature's name is not the service's). A page whose customer has usages (most
// pages, most of the time) never shows these: <usage-meter> imports this module the first time
// one of them is to show, and shows its skeleton meanwhile.

registerSharedTexts();

/** The styles of these states alone, added to a meter's own (styles.ts) when it shows one. */
const noticeStyles = css`
  /* The calm states (no subscription, signed out, unavailable): a quiet box, no alarm colour. */
  [data-kind='no-subscription'],
  [data-kind='signed-out'],
  [data-kind='unavailable'] {
    padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
    border: 1px dashed var(--_hairline);
    border-radius: var(--_radius);
  }
  a.primary {
    display: inline-block;
    text-decoration: none;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) * 2);
  }
`;

/** Adds this module's styles to the meter's shadow root, once. */
function adoptNoticeStyles(meter: Element): void {
  const root = meter.shadowRoot;
  const sheet = noticeStyles.styleSheet;
  if (root && sheet && !root.adoptedStyleSheets.includes(sheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** The meter, as these states need it. */
export interface NoticeHost extends RemedyHost {
  label: string | undefined;
  signInUrl: string | undefined;
  /** Fetches the usages again (the retry button). */
  refresh(): Promise<void>;
}

/** The states this module draws (the meter's `state`). */
export type NoticeState =
  'error' | 'signed-out' | 'unavailable' | 'no-subscription' | 'pending' | 'not-in-plan';

/** What the store knows that these states show. */
export interface NoticeFacts {
  error: BillingError | null;
  /** The pending plan's visible features (state `pending`). */
  pendingFeatures: readonly OfferFeature[];
  /** The service's offers, when asked (state `not-in-plan`: the plan that includes it). */
  offers: readonly Offer[] | null;
  /** The meter's way of drawing a figures text (its `renderFigures`), for the allowances. */
  renderFigures: FiguresRenderer;
  /**
   * The meter is the one of its region to offer the remedy (call-to-action.ts): a pending meter
   * that is says when the plan's terms start; the others show the terms alone.
   */
  speaks: boolean;
}

/** Draws a figures text ('{total} included') with the given figures in place. */
export type FiguresRenderer = (
  element: Element,
  key: MessageKey,
  parts: Record<string, TemplateResult>,
) => TemplateResult[];

/**
 * What a meter shows for a feature the customer's usages lack, given every feature of the
 * service (`known`, null when the proxy gives no catalogue): `not-in-plan` when the service has
 * it, else `unavailable` (a typo of the integrator's, told in the console; the customer reads a
 * neutral text, not an upsell). Without a catalogue to check against, the plan may lack it or
 * the name may be mistyped: `not-in-plan`, and the console says it may be a typo.
 */
export function lackedFeatureState(
  feature: string,
  offers: readonly Offer[] | null,
  {
    usages,
    pendingFeatures,
  }: { usages: readonly Usage[]; pendingFeatures: readonly OfferFeature[] },
): 'not-in-plan' | 'unavailable' {
  const known =
    offers &&
    new Set(offers.flatMap((offer) => (offer.Features ?? []).map((f) => f.ReferenceFeature)));
  if (known?.has(feature)) return 'not-in-plan';
  const names = [
    ...new Set([
      ...usages.map((usage) => usage.ReferenceFeature),
      ...pendingFeatures.map((offered) => offered.ReferenceFeature),
      ...(known ?? []),
    ]),
  ].join(', ');
  if (known === null) {
    tellIntegratorOnce(
      `<usage-meter feature="${feature}">: "${feature}" is not in this customer's plan; it may be a typo. Known: ${names}.`,
    );
    return 'not-in-plan';
  }
  tellIntegratorOnce(
    `<usage-meter feature="${feature}">: "${feature}" is not a feature of this customer's service; known: ${names}.`,
  );
  return 'unavailable';
}

/** The body of a meter in one of these states. */
export function renderNoticeState(
  meter: NoticeHost,
  state: NoticeState,
  { error, pendingFeatures, offers, renderFigures, speaks }: NoticeFacts,
): TemplateResult {
  adoptNoticeStyles(meter);
  switch (state) {
    case 'error':
      return renderError(meter, error);
    case 'signed-out':
      return renderNotice(state, message(meter, 'state.signed-out'), renderSignIn(meter));
    case 'unavailable':
      return renderNotice(state, message(meter, 'state.unavailable'));
    case 'no-subscription':
      return renderNoSubscription(meter);
    case 'pending':
      return renderPending(meter, pendingFeatures, renderFigures, speaks);
    case 'not-in-plan':
      return renderNotInPlan(meter, planIncluding(offers, meter.feature));
  }
}

/** A calm sentence (and at most one action): no subscription, signed out, unavailable. */
function renderNotice(
  kind: NoticeState,
  text: string,
  action: TemplateResult | typeof nothing = nothing,
): TemplateResult {
  return html`<div class="message" part="message" data-kind=${kind}>
    <p>${text}</p>
    ${action}
  </div>`;
}

function renderError(meter: NoticeHost, error: BillingError | null): TemplateResult {
  const code = error?.code ?? '';
  // remedyFor only answers remedy pages, each with its `remedy.<page>` label.
  const page = remedyFor(code);
  return html`<div class="message" part="message" data-kind="error">
    <p role="alert"><slot name="error">${errorMessage(meter, code, 'error.generic')}</slot></p>
    <div class="actions">
      ${
        page
          ? html`<button
              type="button"
              class="primary"
              part="button remedy"
              @click=${() => void openRemedy(meter, page, code)}
            >
              ${remedyLabel(meter, page, code)}
            </button>`
          : nothing
      }
      ${
        // Another account signed in: reading again cannot help, reloading the page does.
        code === 'session-changed'
          ? reloadButton(meter)
          : html`<button
              type="button"
              class="primary"
              part="button retry"
              @click=${() => void meter.refresh()}
            >
              <slot name="retry">${message(meter, 'retry')}</slot>
            </button>`
      }
    </div>
  </div>`;
}

/** The plan lacks the feature: said, with the least expensive plan that includes it, if any. */
function renderNotInPlan(meter: NoticeHost, plan: SuggestedPlan | undefined): TemplateResult {
  const label = meter.label || meter.feature;
  const code = 'Error.Api.Usage.NoneMatching';
  return html`<div class="message" part="message" data-kind="not-in-plan">
    <p>
      <slot name="not-in-plan"
        >${
          plan
            ? message(meter, 'state.not-in-plan.suggest', { label, plan: plan.title })
            : message(meter, 'meter.not-in-plan', { label })
        }</slot
      >
    </p>
    <button
      type="button"
      class="secondary"
      part="button remedy"
      @click=${() => void openRemedy(meter, 'change-plan', code, meter, plan?.offer)}
    >
      <slot name="change-plan"
        >${
          plan
            ? message(meter, 'remedy.change-plan.to', { plan: plan.title })
            : message(meter, 'remedy.change-plan')
        }</slot
      >
    </button>
  </div>`;
}

function renderSignIn(meter: NoticeHost): TemplateResult | typeof nothing {
  const configured = meter.signInUrl || getBillingConfig().signInUrl;
  // An empty address would resolve to this very page: no link then.
  const address = configured ? httpUrl(configured, location.href) : null;
  if (!address) return nothing;
  return html`<a class="primary" part="button sign-in" href=${address.href}
    >${message(meter, 'state.sign-in')}</a
  >`;
}

function renderNoSubscription(meter: NoticeHost): TemplateResult {
  return renderNotice(
    'no-subscription',
    message(meter, 'state.no-subscription'),
    html`<button
      type="button"
      class="primary"
      part="button remedy"
      @click=${() => void openRemedy(meter, 'offers', 'no-subscription')}
    >
      ${message(meter, 'remedy.offers')}
    </button>`,
  );
}

/**
 * A pending plan's allowances: what it includes. The meter that speaks for its region says they
 * start once the subscription is complete, and offers to complete it; the others show the terms.
 */
function renderPending(
  meter: NoticeHost,
  pendingFeatures: readonly OfferFeature[],
  renderFigures: FiguresRenderer,
  speaks: boolean,
): TemplateResult {
  const features = pendingFeatures.filter((feature) => feature.IsVisible !== false);
  const starts = speaks ? message(meter, 'state.pending') : undefined;
  const action = speaks
    ? html`<div class="actions">
        <button
          type="button"
          class="secondary"
          part="button remedy"
          @click=${() => void openRemedy(meter, 'subscribe', 'subscription-pending')}
        >
          ${message(meter, 'remedy.subscribe')}
        </button>
      </div>`
    : nothing;
  if (meter.feature) {
    const own = features.find((feature) => feature.ReferenceFeature === meter.feature);
    return html`${renderAllowance(meter, own!, 0, renderFigures, starts)}${action}`;
  }
  return html`<ul class="list" part="list" aria-label=${message(meter, 'meter.list')}>
      ${features.map((feature, index) => html`<li part="item">${renderAllowance(meter, feature, index, renderFigures)}</li>`)}
    </ul>
    ${starts ? html`<p class="detail" part="detail">${starts}</p>` : nothing}${action}`;
}

/**
 * A feature's terms in the pending plan; a single meter keeps its reserved detail row, which
 * says when they start (`starts`) in the meter that speaks for its region.
 */
function renderAllowance(
  meter: NoticeHost,
  feature: OfferFeature,
  index: number,
  renderFigures: FiguresRenderer,
  starts?: string,
): TemplateResult {
  const id = `feature-${index}`;
  const name = (meter.feature && meter.label) || feature.TitleLocalized || feature.ReferenceFeature;
  const label = html`<span class="label" part="label" id=${id}
    >${meter.feature ? html`<slot name="label">${name}</slot>` : name}</span
  >`;
  if (feature.TypeFeature === 'OnOff') {
    const included = feature.IsIncluded !== false;
    // Included in the plan, not on yet: no rights before the checkout (neither the gate nor
    // isEntitled grants it), so not drawn as on.
    return html`<div class="meter" part="meter" data-pending>
      <div class="switch" part="switch">
        ${label}
        <span class="state" part="state"
          >${message(meter, included ? 'meter.included' : 'meter.not-included')}</span
        >
      </div>
      ${included && starts ? html`<p class="detail" part="detail">${starts}</p>` : nothing}
    </div>`;
  }
  const total = feature.QuantityIncluded ?? 0;
  const unlimited = total === -1;
  const figure = html`<span class="figure" part="total">${formatNumber(meter, total)}</span>`;
  return html`<div class="meter" part="meter" data-pending>
    <div class="header" part="header">${label}</div>
    <p class="figures" part="figures">
      ${
        unlimited
          ? html`<span class="unlimited" part="unlimited"
              >${message(meter, 'meter.unlimited')}</span
            >`
          : renderFigures(meter, 'meter.included-count', { total: figure })
      }
    </p>
    <div class="track" part="track" aria-hidden="true"></div>
    ${meter.feature ? html`<p class="detail" part="detail">${starts ?? nothing}</p>` : nothing}
  </div>`;
}

/** Lines already written: each cause is told to the integrator once per page. */
const said = new Set<string>();

/** Writes an integrator's line to the console once per page, whatever the number of elements. */
export function tellIntegratorOnce(line: string): void {
  if (said.has(line)) return;
  said.add(line);
  console.error(`[billing-elements] ${line}`);
}
