import './app.js';
import { formatDate, getUsageStore } from 'billing-elements';

// The overview: the elements do the work; the page only names the billing period, read from
// the same usage store the meters share (no extra request).

const period = document.querySelector<HTMLElement>('[data-period]');
const store = getUsageStore();

function showPeriod(): void {
  if (!period) return;
  const usage = store.state.usages.find((item) => item.DatePeriodStart && item.DatePeriodEnd);
  period.textContent = usage
    ? `Billing period ${formatDate(period, usage.DatePeriodStart!, { month: 'short', day: 'numeric' })} – ${formatDate(period, usage.DatePeriodEnd!, { dateStyle: 'medium' })}`
    : '';
}

store.subscribe(showPeriod);
store.load().then(showPeriod, () => {
  // The meters show the error and its remedy themselves.
});
