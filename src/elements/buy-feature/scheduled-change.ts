import { formatDate, message } from '../../client/i18n.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import type { ConfirmView } from '../shared/confirm-dialog.js';
import { gives } from '../shared/suggested-plan.js';
import { capitalized } from './wording.js';

// A subscription may wait for a plan change at the end of its period (a downgrade the customer
// scheduled). A purchase or an add-on is priced on the plan it is on now, by the service: the
// recurring price the dialog shows is that plan's, until the change. The dialog says so, rather
// than let the customer read it as the price after that date too. When the new plan does not
// include the feature, the dialog says that too: what is bought now ends with the change.

/** The plan change the subscription waits for: the new plan's title and when it happens. */
export interface ScheduledChange {
  title: string;
  date: string;
  /** Whether the new plan is known to leave the feature out. */
  lacksFeature: boolean;
}

/**
 * The plan change the signed-in customer's subscription waits for, or null (none, or it cannot
 * be told: the dialog then says nothing of it), and whether the new plan includes `feature`
 * (looked up in the page's offers, read once per page). Asked each time a dialog opens.
 */
export async function readScheduledChange(
  endpoint: string,
  language: string,
  feature: string,
): Promise<ScheduledChange | null> {
  const status = await getProxyClient(endpoint)
    .getSubscription(undefined, language)
    .catch(() => null);
  const offer = status?.offerAfterTerm;
  if (!offer || !status.dateOfferChange) return null;
  const offers = await getUsageStore(endpoint).offers();
  const next = offers?.find((candidate) => candidate.ReferenceOffer === offer);
  return {
    title: status.titleAfterTerm ?? offer,
    date: status.dateOfferChange,
    lacksFeature:
      next !== undefined &&
      !gives(next.Features?.find((terms) => terms.ReferenceFeature === feature)),
  };
}

/**
 * The dialog's content with the scheduled change said under its price, when there is one;
 * `title` names the feature when the new plan leaves it out.
 */
export function withScheduledChange(
  host: Element,
  view: ConfirmView,
  scheduled: ScheduledChange | null,
  title: string,
): ConfirmView {
  if (!scheduled) return view;
  const plan = scheduled.title;
  const said = message(host, 'buy.dialog.scheduled', {
    plan,
    date: formatDate(host, scheduled.date),
  });
  const sentence = scheduled.lacksFeature
    ? `${said} ${message(host, 'buy.dialog.scheduled.lacks', { label: capitalized(title), plan })}`
    : said;
  const { effective } = view.quote;
  return {
    ...view,
    quote: { ...view.quote, effective: effective ? `${effective} ${sentence}` : sentence },
  };
}
