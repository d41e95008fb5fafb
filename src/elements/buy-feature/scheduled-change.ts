import { formatDate, message } from '../../client/i18n.js';
import { getProxyClient } from '../../client/proxy-client.js';
import type { ConfirmView } from '../shared/confirm-dialog.js';

// A subscription may wait for a plan change at the end of its period (a downgrade the customer
// scheduled). A purchase or an add-on is priced on the plan it is on now, by the service: the
// recurring price the dialog shows is that plan's, until the change. The dialog says so, rather
// than let the customer read it as the price after that date too.

/** The plan change the subscription waits for: the new plan's title and when it happens. */
export interface ScheduledChange {
  title: string;
  date: string;
}

/**
 * The plan change the signed-in customer's subscription waits for, or null (none, or it cannot
 * be told: the dialog then says nothing of it). Asked each time a dialog opens.
 */
export async function readScheduledChange(
  endpoint: string,
  language: string,
): Promise<ScheduledChange | null> {
  const status = await getProxyClient(endpoint)
    .getSubscription(undefined, language)
    .catch(() => null);
  if (!status?.offerAfterTerm || !status.dateOfferChange) return null;
  return { title: status.titleAfterTerm ?? status.offerAfterTerm, date: status.dateOfferChange };
}

/** The dialog's content with the scheduled change said under its price, when there is one. */
export function withScheduledChange(
  host: Element,
  view: ConfirmView,
  scheduled: ScheduledChange | null,
): ConfirmView {
  if (!scheduled) return view;
  const sentence = message(host, 'buy.dialog.scheduled', {
    plan: scheduled.title,
    date: formatDate(host, scheduled.date),
  });
  const { effective } = view.quote;
  return {
    ...view,
    quote: { ...view.quote, effective: effective ? `${effective} ${sentence}` : sentence },
  };
}
