// Why a read from a proxy on another origin failed, loaded only when one does: a page whose
// requests all succeed never downloads it.
import type { ProxyErrorBody } from '../contract/proxy-api.js';
import { readJson } from './proxy-client.js';

/** Per proxy endpoint, whether it refuses this page's origin, once asked. */
const answers = new Map<string, Promise<boolean>>();

/**
 * Whether a proxy on another origin refuses this page's origin. A credentialed request it
 * refuses cannot be read (the refusal carries no Allow-Credentials), so it looks like a network
 * failure; asked again without credentials, the refusal is readable. Said once in the
 * console, for the integrator: the customer sees a neutral text.
 */
export function refusesThisOrigin(endpoint: string): Promise<boolean> {
  const url = new URL(endpoint, document.baseURI);
  if (url.origin === location.origin) return Promise.resolve(false);
  let answer = answers.get(endpoint);
  if (answer === undefined) {
    answer = fetch(`${url.href.replace(/\/+$/, '')}/usages`, {
      credentials: 'omit',
      headers: { accept: 'application/json' },
    })
      .then(async (response) => {
        const body = (await readJson(response).catch(() => undefined)) as
          Partial<ProxyErrorBody> | undefined;
        const refused = response.status === 403 && body?.code === 'forbidden-origin';
        if (refused)
          console.error(
            `[billing-elements] The origin ${location.origin} is not in allowedOrigins of the billing proxy at ${url.href}: add it there (createBillingProxy({ allowedOrigins })).`,
          );
        return refused;
      })
      .catch(() => false);
    answers.set(endpoint, answer);
  }
  return answer;
}
