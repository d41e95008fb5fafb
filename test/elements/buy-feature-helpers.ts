import { fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { proxyRequestCount, sandbox } from '../browser/billing.js';
import type { PricingResponse } from '../../src/contract/proxy-api.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import '../../src/elements/buy-feature/define.js';
import { nextTurn, sleep, waitFor } from '../time.js';

export { waitFor };

export { sleep };

// Shared steps of the <buy-feature> browser tests. The page talks to the real proxy at
// /billing, mounted by the test server over a real sandbox (test/browser-server.ts; its
// helpers in test/browser/billing.ts sign customers in and drive the sandbox).

export interface SandboxStats {
  requests: Record<string, number>;
  appliedUsageChanges: number;
  appliedUsageChangesByCustomer: Record<string, number>;
  /** API requests received and not yet answered. */
  inFlight: number;
}

export {
  addFault,
  daysLeftInPeriod,
  freshStart,
  sandbox,
  serviceApi,
  streamOpen,
} from '../browser/billing.js';

/** What reached the sandbox since the last reset: requests per route, usage changes applied. */
export function sandboxStats(): Promise<SandboxStats> {
  return sandbox<SandboxStats>('stats');
}

/**
 * Waits until the sandbox has answered every API request it received, a delayed (late) answer
 * included: what it applies, it has applied by then.
 */
export async function sandboxAnsweredAll(timeoutMs = 8_000): Promise<void> {
  await waitFor(
    async () => (await sandboxStats()).inFlight === 0,
    'the sandbox to answer every request',
    timeoutMs,
  );
}

/** Requests the sandbox received on one route ('POST /v1/Usage'), 0 when none. */
export async function requestsTo(route: string): Promise<number> {
  return (await sandboxStats()).requests[route] ?? 0;
}

/**
 * Sends a request of the test's own through the proxy and waits for its answer, then answers
 * how many purchases (POST {basePath}/usage) the proxy has received. For "nothing is sent"
 * checks: a purchase the page had started before this request would have reached the proxy
 * before the test's request made its round trip to the service and back.
 */
export function purchasesAfterLaterRequest(): Promise<number> {
  return requestsAfterLaterRequest('POST', '/billing/usage');
}

/** The same for any route of the proxy (`POST`, `/billing/pricing`). */
export async function requestsAfterLaterRequest(method: string, path: string): Promise<number> {
  const response = await fetch('/billing/usages', {
    credentials: 'include',
    headers: { accept: 'application/json' },
  });
  await response.body?.cancel();
  return proxyRequestCount(method, path);
}

/** The price the proxy quotes right now (the same call the element makes). */
export async function quote(feature: string, increment: number): Promise<PricingResponse> {
  const response = await fetch('/billing/pricing', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ feature, increment }),
  });
  if (!response.ok)
    throw new Error(`pricing answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as PricingResponse;
}

export function part<T extends Element = HTMLElement>(element: Element, name: string): T | null {
  return element.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
}

export function partText(element: Element, name: string): string {
  return part(element, name)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

export function dialogOf(element: Element): HTMLDialogElement {
  return element.shadowRoot!.querySelector('dialog')!;
}

/** The shadow-internal element that has the focus, if any. */
export function focusedPart(element: Element): string | null {
  return element.shadowRoot!.activeElement?.getAttribute('part') ?? null;
}

export async function waitForFocus(element: Element, partName: string): Promise<void> {
  await waitUntil(
    () => focusedPart(element) === partName,
    `focus on ${partName} (it is on ${focusedPart(element)})`,
    { timeout: 3000 },
  );
}

/** A `<buy-feature>` for `quantity` seats, once its price shows. */
export function pricedSeats(quantity: number): Promise<BuyFeature> {
  return pricedElement(html`<buy-feature feature="seats" quantity=${quantity}></buy-feature>`);
}

export async function pricedElement(template: TemplateResult): Promise<BuyFeature> {
  const element = await fixture<BuyFeature>(template);
  await waitForPrice(element);
  return element;
}

export async function waitForPrice(element: Element, text?: string): Promise<void> {
  await waitUntil(
    () => {
      const shown = part(element, 'price-now')?.querySelector('dd')?.textContent?.trim();
      return shown !== undefined && (text === undefined || shown === text);
    },
    `price ${text ?? ''} shown`,
    { timeout: 8000 },
  );
}

export function shownPrice(element: Element): string | undefined {
  return part(element, 'price-now')?.querySelector('dd')?.textContent?.trim();
}

export async function waitForDialog(element: Element, open = true): Promise<void> {
  await waitUntil(() => dialogOf(element).open === open, `dialog ${open ? 'open' : 'closed'}`, {
    timeout: 8000,
  });
}

export async function waitForText(element: Element, partName: string, text: string | RegExp) {
  await waitUntil(
    () => {
      const value = partText(element, partName);
      return typeof text === 'string' ? value.includes(text) : text.test(value);
    },
    `${partName} says ${String(text)} (it says "${partText(element, partName)}")`,
    { timeout: 10000 },
  );
}

/** Clicks the buy button and waits for the confirmation dialog, its opening animation done. */
export async function openConfirmation(element: Element): Promise<void> {
  part<HTMLButtonElement>(element, 'buy')!.click();
  await waitForDialog(element);
  await animationsDone(element);
}

/** Waits for the element's finite animations (the dialog rising, not the loading pulse). */
export async function animationsDone(element: Element): Promise<void> {
  const finite = element
    .shadowRoot!.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.all(finite.map((animation) => animation.finished));
}

/** The portal dialog opened by a remedy (no <billing-portal> on the page): its iframe's path. */
export async function openedPortalPath(): Promise<string> {
  let path = '';
  await waitUntil(
    () => {
      // The modal portal: a <billing-portal> at the end of the body, its dialog open.
      const portal = document.querySelector('body > billing-portal');
      const open = portal?.shadowRoot?.querySelector('dialog')?.open;
      const frame = open ? portal!.querySelector('iframe') : null;
      path = frame?.src ? new URL(frame.src).pathname : '';
      return path !== '';
    },
    'a portal page opened',
    { timeout: 10000 },
  );
  return path;
}

/** Closes any portal dialog a remedy left open. */
export async function closePortalDialogs(): Promise<void> {
  // A remedy imports the portal's code on first use (openPortalOnDemand): the modal that the
  // test's last click asked for comes once that import is done, maybe after the test ended.
  await import('../../src/elements/billing-portal/open.js');
  await nextTurn();
  for (const portal of document.querySelectorAll('body > billing-portal')) {
    portal.shadowRoot!.querySelector('dialog')!.close();
    // It leaves on the close event, a task later: gone now, so the next test cannot take it
    // for the page's portal.
    portal.remove();
  }
}

/** Waits until the add-on settles on the standing `expected` (available, owned, included...). */
export async function standing(element: BuyFeature, expected: string): Promise<void> {
  await waitUntil(
    () => part(element, 'add-on')?.dataset.standing === expected,
    `standing ${expected} (it is ${part(element, 'add-on')?.dataset.standing ?? 'not shown'})`,
    { timeout: 10000 },
  );
  await element.updateComplete;
}
