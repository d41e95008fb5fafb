import type { PortalRequest } from '../../contract/proxy-api.js';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError } from '../../client/errors.js';
import { languageOf } from '../../client/i18n.js';
import { DEFAULT_PORTAL_CONTAINER_ID, portalHostFor } from '../../client/portal.js';
import { copyAppearance } from '../shared/appearance.js';
import type { OpenPortalPageOptions } from '../shared/remedy.js';
import { BillingPortal, makeModal } from './billing-portal.js';

/**
 * Opens a portal workflow: in the `<billing-portal>` on the page when there is one (it scrolls
 * into view), otherwise in a modal `<billing-portal>` of its own. The usages refresh when it
 * completes.
 */
export async function openPortalPage(
  request: PortalRequest,
  options: OpenPortalPageOptions = {},
): Promise<void> {
  const endpoint = resolveEndpoint(options.endpoint);
  try {
    await (portalHostFor(endpoint) ?? openModalPortal(endpoint, options)).openPage(request);
  } catch (error) {
    throw toBillingError(error);
  }
}

let sequence = 0;

/**
 * The portal of last resort: a `<billing-portal>` at the end of the body that shows itself in a
 * modal dialog (in its shadow root, its container still in the light tree where the portal
 * script finds it by id), with its loading, error and retry states. While open, it is the
 * page's portal host, so a second request switches its page. Closing the dialog removes it and
 * gives the focus back to `from` (else what had it), or to the element holding it.
 */
function openModalPortal(endpoint: string, { from, title }: OpenPortalPageOptions): BillingPortal {
  const portal = new (portalClass())();
  portal.endpoint = endpoint;
  portal.containerId = document.getElementById(DEFAULT_PORTAL_CONTAINER_ID)
    ? `${DEFAULT_PORTAL_CONTAINER_ID}_dialog_${++sequence}`
    : DEFAULT_PORTAL_CONTAINER_ID;
  portal.lang = languageOf(from ?? document.documentElement);
  // At the end of the body it would take the page's look: it takes the opener's.
  if (from) copyAppearance(from, portal);
  makeModal(portal, from ?? document.activeElement, title);
  document.body.append(portal);
  return portal;
}

/**
 * This copy's class, which knows how to be modal: registered already (as `<billing-portal>` or
 * the host app's own tag), else as `<billing-portal>`, or, when another copy of the library
 * holds that tag, as `<billing-portal-modal>`.
 */
function portalClass(): typeof BillingPortal {
  if (!customElements.getName(BillingPortal))
    BillingPortal.define(customElements.get('billing-portal') ? 'billing-portal-modal' : undefined);
  return BillingPortal;
}
