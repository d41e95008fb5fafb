import type { PortalPage, PortalRequest } from '../contract/proxy-api.js';
import { resolveEndpoint } from './config.js';

export {
  loadPortalScript,
  type LoadPortalScriptOptions,
  type ServicePortalApi,
} from './portal-script.js';
export { embedPortal, followableOrThrow, type EmbedPortalOptions } from './portal-embed.js';

/**
 * The seed's id of the element the portal script renders into. Defined here, not beside
 * embedPortal: what opens a modal portal needs the id, not the embedding code.
 */
export const DEFAULT_PORTAL_CONTAINER_ID = 'service_portal';

/** An element that can show portal pages in place (an embedding `<billing-portal>`). */
export interface PortalHost extends Element {
  /** The proxy it talks to (unset: the page's). */
  readonly endpoint: string | undefined;
  /** Shows the page in place and brings it into view. */
  openPage(request: PortalRequest): Promise<void>;
}

const hosts = new Set<PortalHost>();

/** Makes a host the place where `openPortalPage` opens pages while it is connected. */
export function registerPortalHost(host: PortalHost): () => void {
  hosts.add(host);
  return () => {
    hosts.delete(host);
  };
}

/** The connected portal host for a proxy (any connected one when none uses that proxy). */
export function portalHostFor(endpoint: string): PortalHost | undefined {
  const connected = [...hosts].filter((host) => host.isConnected);
  return connected.find((host) => resolveEndpoint(host.endpoint) === endpoint) ?? connected[0];
}

const REMEDIES = new Map<string, PortalPage>([
  ['Error.Api.Usage.NoneMatching', 'change-plan'],
  ['Error.Customer.PaymentSettings.Missing', 'register'],
  ['Error.Customer.Billing.CappingReached', 'pay-invoice'],
  ['Error.Subscription.NotActive', 'restart'],
  ['subscription-suspended', 'restart'],
  ['payment-method-invalid', 'register'],
  ['subscription-pending', 'subscribe'],
  ['no-subscription', 'offers'],
  ['already-subscribed', 'change-plan'],
]);

/** The portal page that remedies an error code of the proxy, when there is one. */
export function remedyFor(code: string): PortalPage | undefined {
  return REMEDIES.get(code);
}
