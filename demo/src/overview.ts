import './app.js';
import { formatDate, getUsageStore, watchLang } from 'billing-elements';
import { addSeatsNote } from './seats-note.js';
import { word } from './words.js';

// The overview: the elements do the work; the page only names the billing period, read from
// the same usage store the meters share (no extra request).

const period = document.querySelector<HTMLElement>('[data-period]');
const store = getUsageStore();

function showPeriod(): void {
  if (!period) return;
  const usage = store.state.usages.find((item) => item.DatePeriodStart && item.DatePeriodEnd);
  period.textContent = usage
    ? word('period', {
        start: formatDate(period, usage.DatePeriodStart!, { month: 'short', day: 'numeric' }),
        end: formatDate(period, usage.DatePeriodEnd!, { dateStyle: 'medium' }),
      })
    : '';
}

// The "Add seats" card's note, computed from the customer's seats as the billing page's is.
const seatsNote = document.querySelector<HTMLElement>('[data-add-seats-note]');

function showSeatsNote(): void {
  if (!seatsNote) return;
  const text = addSeatsNote(store.state, seatsNote);
  // Nothing known yet keeps the skeleton; a failed read is the seats control's to tell, and so
  // is a plan without seats: both hide the note.
  const { status } = store.state;
  if (status === 'idle' || status === 'loading') return;
  seatsNote.textContent = text;
  seatsNote.hidden = text === '';
}

function show(): void {
  showPeriod();
  showSeatsNote();
}

store.subscribe(show);
watchLang(show);
store.load().then(show, () => {
  // The meters show the error and its remedy themselves.
  showSeatsNote();
});

// "Simulate back-end usage": the demo's server reports API calls to the billing service, as a
// host app's back end does; the service's notification reaches this page through the proxy's
// event stream, and the API calls meter moves by itself (no reload, nothing asked by the page).
const simulate = document.querySelector<HTMLButtonElement>('[data-report-usage]');
simulate?.addEventListener('click', () => {
  simulate.disabled = true;
  fetch('/demo/report-usage', { method: 'POST', credentials: 'same-origin' })
    .catch(() => {
      // The meter shows what the service has: nothing to say here.
    })
    .finally(() => {
      simulate.disabled = false;
    });
});
