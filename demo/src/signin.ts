// The sign-in page: whoever signs in next must not see the previous customer's usages.
import { getUsageStore } from 'billing-elements';

const store = getUsageStore();
// Cleared again on arrival after signing out: meters still on the page that was left may have
// reloaded the usages between the sign-out click and the end of the session.
if (new URLSearchParams(location.search).has('signed-out')) store.clear();
document.querySelector('form.account-list')?.addEventListener('submit', () => store.clear());
