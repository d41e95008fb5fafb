// The sign-in page: whoever signs in next must not see the previous customer's usages.
import { getUsageStore } from 'billing-elements';

document
  .querySelector('form.account-list')
  ?.addEventListener('submit', () => getUsageStore().clear());
