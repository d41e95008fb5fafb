import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { formatMoney, formatNumber, message, registerTexts } from '../../client/i18n.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import type { Offer } from '../../contract/catalog.js';
import type { SubscriptionDiscount } from '../../contract/proxy-api.js';
import { UNLIMITED_QUANTITY } from '../../contract/constants.js';
import type { Usage } from '../../contract/resources.js';
import { CallToAction } from '../shared/call-to-action.js';
import { openRemedy, type RemedyHost } from '../shared/remedy.js';
import { remedyPointer } from '../shared/remedy-pointer.js';
import { planIncluding } from '../shared/suggested-plan.js';
import { overrunTexts } from './overrun-messages.js';

// Under the figures of a consumption at or past what the plan includes: what the use beyond it
// costs so far, at the plan's price of each unit ("9,200 beyond your plan: $92.00 so far, at
// $0.01 each."), or, for a feature the plan caps and whose use reached the cap, that the service
// refuses more; then the least expensive plan that includes the use ("Switch to Business"): the
// one way out of a cap, or a saving once the use beyond the plan costs more than that plan's
// higher price. <usage-meter> imports this module the first time one of its meters reaches its
// critical level: a page whose meters are within their plan loads none of it.

registerSharedTexts();
registerTexts(overrunTexts, { fr: () => import('./overrun-messages.fr.js') });

/** The meter, as this module needs it. */
export type OverrunHost = RemedyHost & ReactiveControllerHost;

/**
 * A meter's part in the rule of one call to action per region (call-to-action.ts) for the plans:
 * claimed by each render that offers a plan, and given up after a render that no longer does (the
 * use went back within the plan, or the customer moved to a plan that includes it).
 */
class OverrunCallToAction extends CallToAction {
  /** A plan was offered by the render under way. */
  offered = false;

  hostUpdate(): void {
    this.offered = false;
  }

  hostUpdated(): void {
    if (!this.offered) this.offer(undefined);
  }
}

const callsToAction = new WeakMap<OverrunHost, OverrunCallToAction>();

/** What the cost so far is counted from: the service's offers and the subscription's discounts. */
interface Terms {
  /** Null: the proxy gives no catalogue. */
  offers: readonly Offer[] | null;
  discounts: readonly SubscriptionDiscount[];
}

/**
 * The terms once read, by the store's read of its offers: a store asks again for another
 * customer, whose plan and discounts are others.
 */
const termsRead = new WeakMap<Promise<readonly Offer[] | null>, Terms>();

/**
 * The offers and the subscription's discounts, which may take a share off the use charged beyond
 * the plan (see `discounted`).
 */
async function readTerms(
  meter: OverrunHost,
  reading: Promise<readonly Offer[] | null>,
): Promise<Terms> {
  const [offers, status] = await Promise.all([
    reading,
    getProxyClient(meter.endpoint)
      .getSubscription()
      .catch(() => undefined),
  ]);
  return { offers, discounts: status?.discounts ?? [] };
}

/**
 * An amount once the subscription's discounts apply to it, as the service counts it: each share
 * of a discount on the charges it covers rounded to the hundredth and taken off. The use charged
 * beyond the plan is covered by a discount on all charges; a recurring price (`recurring`) also
 * by one on the recurring price only. An amount off is left out: it takes the same off whichever
 * plan. Undefined when a discount does not say what it takes off or which charges it covers.
 */
function discounted(
  amount: number,
  discounts: readonly SubscriptionDiscount[],
  recurring = false,
): number | undefined {
  let off = 0;
  for (const { off: share, fees } of discounts) {
    if (!share || !fees) return undefined;
    if ((fees === 'all' || recurring) && 'perTenThousand' in share)
      off += Math.round((amount * share.perTenThousand) / 10_000);
  }
  return Math.max(0, amount - off);
}

/**
 * Whether a plan that includes the use would have cost the customer less this period than their
 * plan with its use beyond it (`extraCost`, discounts taken off): only then is it suggested for a
 * use the service still accepts, so that a costlier plan is never pushed for a use it would not
 * pay for. False when the two plans cannot be compared (another period or currency, a price
 * untold).
 */
function cheaperWith(
  plan: Offer | undefined,
  bigger: Offer,
  extraCost: number,
  discounts: readonly SubscriptionDiscount[],
): boolean {
  if (plan?.AmountRecurrence === undefined || bigger.AmountRecurrence === undefined) return false;
  if (
    plan.Currency !== bigger.Currency ||
    plan.UnitRecurrence !== bigger.UnitRecurrence ||
    plan.DurationRecurrence !== bigger.DurationRecurrence
  )
    return false;
  const more = bigger.AmountRecurrence - plan.AmountRecurrence;
  return extraCost >= (discounted(more, discounts, true) ?? more);
}

/**
 * Why the plan suggested: what it includes of the feature ("Business includes 100,000."), and,
 * for a use the service still accepts, that it costs less than the customer's plan with that use
 * ("Business includes 100,000: at this use, it costs less than Pro.").
 */
function planTerms(
  meter: OverrunHost,
  offer: Offer,
  feature: string,
  cheaperThan: string | undefined,
) {
  const plan = offer.TitleLocalized ?? offer.ReferenceOffer;
  const included = offer.Features?.find((f) => f.ReferenceFeature === feature)?.QuantityIncluded;
  const limit = included === UNLIMITED_QUANTITY ? 'unlimited' : 'included';
  return message(meter, `meter.overrun.plan.${limit}${cheaperThan ? '.cheaper' : ''}`, {
    plan,
    included: formatNumber(meter, included ?? 0),
    current: cheaperThan ?? '',
  });
}

/**
 * What `usage` (one of the meter's features, at or past its critical level) says beyond its
 * figures: its cost and its way out when its use is past what the plan includes or at the plan's
 * cap, else nothing. Nothing either until the service's offers are read (the meter is asked to
 * update then).
 */
export function renderOverrun(meter: OverrunHost, usage: Usage): TemplateResult | typeof nothing {
  let callToAction = callsToAction.get(meter);
  if (!callToAction) callsToAction.set(meter, (callToAction = new OverrunCallToAction(meter)));
  const reading = getUsageStore(meter.endpoint).offers();
  const terms = termsRead.get(reading);
  if (terms === undefined) {
    void readTerms(meter, reading).then((read) => {
      termsRead.set(reading, read);
      meter.requestUpdate();
    });
    return nothing;
  }
  const { offers, discounts } = terms;
  const feature = usage.ReferenceFeature;
  const used = usage.QuantityCurrent ?? 0;
  const extra = used - (usage.QuantityIncluded ?? 0);
  const plan = offers?.find((offer) =>
    usage.ReferenceOffer ? offer.ReferenceOffer === usage.ReferenceOffer : offer.IsCurrent,
  );
  const own = plan?.Features?.find((candidate) => candidate.ReferenceFeature === feature);
  const cap = own?.QuantityMax;
  const capped = cap !== undefined && used >= cap;
  if (extra <= 0 && !capped) return nothing;
  const sentences: string[] = [];
  // What the use beyond the plan costs so far, discounts taken off when the meter can count them.
  let extraCost = 0;
  if (extra > 0) {
    const unit = own?.AmountUnit;
    const currency = plan?.Currency;
    const list = extra * (unit ?? 0);
    const after = discounted(list, discounts);
    extraCost = after ?? list;
    // Which text: no discount, one taken off (said with its name), or one the meter cannot count.
    const key =
      discounts.length === 0
        ? 'meter.overrun.cost'
        : after === undefined
          ? 'meter.overrun.cost.before-discount'
          : after < list
            ? 'meter.overrun.cost.discounted'
            : 'meter.overrun.cost';
    sentences.push(
      unit && currency
        ? message(meter, key, {
            extra: formatNumber(meter, extra),
            amount: formatMoney(meter, extraCost, currency),
            price: formatMoney(meter, unit, currency),
            name: discounts.map(({ title }) => title).join(', '),
          })
        : message(meter, 'meter.overrun', { extra: formatNumber(meter, extra) }),
    );
  }
  // A cap ahead is said as soon as the use is past the plan, with what is left before it.
  const left = cap === undefined ? 0 : cap - used;
  if (capped) sentences.push(message(meter, 'meter.capped', { max: formatNumber(meter, cap) }));
  else if (cap !== undefined)
    sentences.push(
      message(meter, 'meter.capped.ahead', {
        max: formatNumber(meter, cap),
        left: formatNumber(meter, left),
      }),
    );
  // Within a tenth of the cap, the plan that lifts it is named as at the cap: further use will
  // soon be refused, whatever it costs.
  const nearCap = cap !== undefined && left * 10 <= cap;
  // The least expensive plan that includes at least the use so far (or unlimited use): the way
  // out of a cap, or, for a use the service still accepts, a saving once it costs less.
  const roomy = offers?.filter((offer) => {
    const included = offer.Features?.find((f) => f.ReferenceFeature === feature)?.QuantityIncluded;
    return included === UNLIMITED_QUANTITY || (included ?? 0) >= used;
  });
  const found = planIncluding(roomy, feature);
  const offer = found && offers!.find((candidate) => candidate.ReferenceOffer === found.offer)!;
  const cheaper = offer !== undefined && !nearCap && cheaperWith(plan, offer, extraCost, discounts);
  const bigger = nearCap || cheaper ? found : undefined;
  if (bigger) {
    callToAction.offered = true;
    const current = plan?.TitleLocalized ?? plan?.ReferenceOffer;
    sentences.push(planTerms(meter, offer!, feature, cheaper ? current : undefined));
  }
  const speaks = bigger && callToAction.offer('plans');
  return html`<div class="message" part="overrun" data-kind="overrun">
    <p>${sentences.join(' ')}</p>
    ${
      !bigger
        ? nothing
        : speaks
          ? html`<button
              type="button"
              class="secondary"
              part="button remedy"
              @click=${() => void openRemedy(meter, 'change-plan', undefined, meter, bigger.offer)}
            >
              ${message(meter, 'remedy.change-plan.to', { plan: bigger.title })}
            </button>`
          : remedyPointer(meter, callToAction, 'plans')
    }
  </div>`;
}
