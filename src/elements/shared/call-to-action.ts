import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { resolveEndpoint } from '../../client/config.js';
import type { PortalPage } from '../../contract/proxy-api.js';

// One call to action per page region. When the customer's account is in a state that every
// element meets (overdue invoices, a suspended or pending subscription, no plan, a failed read),
// each element would offer the same remedy; the page tells it once instead:
//
// - A region is the closest ancestor marked `data-billing-region`, else the whole document (or
//   the shadow root the element lives in).
// - In a region, one element offers each remedy: the one marked `data-billing-remedy`, or the
//   host page's own call to action (an element of the page that names the remedies its buttons
//   offer: `data-billing-remedy="register restart"`), the first of those in document order; else
//   the one whose subject the remedy is (the plan picker for plans, an embedded portal for
//   payments and the subscription), else the first in document order that has something to
//   do about it, else (nothing else claiming it) the first of those that only tell the state: a
//   pending meter says "Starts once your subscription is complete" only when no element of its
//   region offers to complete it.
// - The others show their state calmly, without the remedy, and point to the one that offers it.

/**
 * What an element offers to fix a state: a portal workflow's topic, reading again, signing in,
 * or reloading the page (another account signed in since it opened).
 */
export type Remedy =
  'plans' | 'pay-invoice' | 'restart' | 'subscribe' | 'register' | 'retry' | 'sign-in' | 'reload';

/**
 * The remedy of a failed read: reloading the page when another account signed in since it
 * opened (its elements cannot read again for the customer they show), else reading again.
 */
export function failureRemedy(code: string | undefined): Remedy {
  return code === 'session-changed' ? 'reload' : 'retry';
}

/** The attribute a host app puts on a container to make it a region of its own. */
export const REGION_ATTRIBUTE = 'data-billing-region';
/**
 * The attribute a host app puts on the element that should offer the remedies of its region; on
 * an element of its own, its value names the remedies that element's buttons offer.
 */
export const SPEAKER_ATTRIBUTE = 'data-billing-remedy';

/** The remedy of a portal page: both ways to the plans are one topic ("See plans"). */
export function remedyOfPage(page: PortalPage): Remedy | undefined {
  if (page === 'offers' || page === 'change-plan') return 'plans';
  return page === 'home' ? undefined : page;
}

interface Claim {
  endpoint: string;
  remedies: readonly Remedy[];
  /** The remedies are the element's subject (see the rule above). */
  owner: boolean;
  /** The element offers the remedies only when no other element of its region does. */
  quiet: boolean;
}

/** Every connected element that offers (or owns) a remedy now. */
const claims = new Map<Element, Claim>();
/** The elements that take part in the rule: what is not one of them is the host page's own. */
const elements = new WeakSet<Element>();
/** An update of the claimants is asked for, after the current task's claims. */
let updateAsked = false;

/** The region of an element: its closest marked ancestor, else its document or shadow root. */
export function regionOf(element: Element): Node {
  return element.closest(`[${REGION_ATTRIBUTE}]`) ?? element.getRootNode();
}

/** Where one element offers `remedy`: the whole page for reloading it, else the region. */
function reachOf(element: Element, remedy: Remedy): Node {
  return remedy === 'reload' ? element.ownerDocument : regionOf(element);
}

function inDocumentOrder(a: Element, b: Element): number {
  return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/**
 * The host page's own calls to action for `remedy` in `region`: its elements (none of the rule's)
 * whose `data-billing-remedy` names it, read each time an element of the region renders.
 */
function hostSpeakers(region: Node, remedy: Remedy): Element[] {
  if (!('querySelectorAll' in region)) return [];
  const marked = (region as ParentNode).querySelectorAll(`[${SPEAKER_ATTRIBUTE}~="${remedy}"]`);
  return [...marked].filter((node) => !elements.has(node) && reachOf(node, remedy) === region);
}

/** The element that offers `remedy` of `endpoint` in `region`, if any claims it. */
function speakerOf(region: Node, endpoint: string, remedy: Remedy): Element | undefined {
  const candidates = [...claims]
    .filter(
      ([element, claim]) =>
        element.isConnected &&
        claim.endpoint === endpoint &&
        claim.remedies.includes(remedy) &&
        reachOf(element, remedy) === region,
    )
    .sort(([a], [b]) => inDocumentOrder(a, b));
  const [chosen] = [
    ...candidates.flatMap(([element]) =>
      element.hasAttribute(SPEAKER_ATTRIBUTE) ? [element] : [],
    ),
    ...hostSpeakers(region, remedy),
  ].sort(inDocumentOrder);
  const owner = candidates.find(([, claim]) => claim.owner);
  const first = candidates.find(([, claim]) => !claim.quiet);
  return chosen ?? (owner ?? first ?? candidates[0])?.[0];
}

/** Asks every element that claims something to update, once, after the current task's claims. */
function updateClaimants(): void {
  if (updateAsked) return;
  updateAsked = true;
  queueMicrotask(() => {
    updateAsked = false;
    for (const element of claims.keys())
      (element as unknown as ReactiveControllerHost).requestUpdate();
  });
}

/**
 * An element's part in the rule: `offer(remedy)` while rendering says what it would offer and
 * answers whether it is the one of its region to do so; `owns(...)` makes remedies its subject.
 */
export class CallToAction implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement & { endpoint?: string | undefined };
  #claim: Claim | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement & { endpoint?: string | undefined }) {
    this.#host = host;
    elements.add(host);
    host.addController(this);
  }

  hostConnected(): void {
    if (!this.#claim) return;
    claims.set(this.#host, this.#claim);
    updateClaimants();
  }

  hostDisconnected(): void {
    if (claims.delete(this.#host)) updateClaimants();
  }

  /**
   * The element would offer `remedy` now (undefined: none): true when it is the one of its
   * region to offer it, false when another one does (it then points to it).
   */
  offer(remedy: Remedy | undefined, owner = false): boolean {
    this.#set(remedy ? [remedy] : [], owner, false);
    return this.#speaks(remedy);
  }

  /**
   * As `offer`, for an element that would rather leave `remedy` to another: true only when no
   * other element of its region offers it (then it says the state and offers the remedy).
   */
  offerQuietly(remedy: Remedy | undefined): boolean {
    this.#set(remedy ? [remedy] : [], false, true);
    return this.#speaks(remedy);
  }

  /** Makes `remedies` the element's subject: it is the one to offer them in its region. */
  owns(remedies: readonly Remedy[]): void {
    this.#set(remedies, true, false);
  }

  /** The element that offers `remedy` in this element's region. */
  speaker(remedy: Remedy): Element | undefined {
    return speakerOf(reachOf(this.#host, remedy), resolveEndpoint(this.#host.endpoint), remedy);
  }

  /**
   * Brings the element offering `remedy` into view and moves the focus to its action (the first
   * button or link of a host page's own call to action).
   */
  showSpeaker(remedy: Remedy): void {
    const speaker = this.speaker(remedy) as HTMLElement | undefined;
    if (!speaker) return;
    speaker.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const action = elements.has(speaker)
      ? speaker.shadowRoot?.querySelector<HTMLElement>(
          '[part~="remedy"], [part~="retry"], [part~="see-plans"]',
        )
      : speaker.querySelector<HTMLElement>('button:not([disabled]), a[href]');
    if (action) action.focus({ preventScroll: true });
    else {
      if (!speaker.hasAttribute('tabindex')) speaker.tabIndex = -1;
      speaker.focus({ preventScroll: true });
    }
  }

  #speaks(remedy: Remedy | undefined): boolean {
    return remedy === undefined || this.speaker(remedy) === this.#host;
  }

  #set(remedies: readonly Remedy[], owner: boolean, quiet: boolean): void {
    const host = this.#host;
    if (!host.isConnected) return;
    const claim = { endpoint: resolveEndpoint(host.endpoint), remedies, owner, quiet };
    const previous = this.#claim;
    if (JSON.stringify(claim) === JSON.stringify(previous) && claims.get(host) === previous) return;
    if (remedies.length === 0 && previous === undefined) return;
    this.#claim = remedies.length ? claim : undefined;
    if (this.#claim) claims.set(host, this.#claim);
    else claims.delete(host);
    updateClaimants();
  }
}
