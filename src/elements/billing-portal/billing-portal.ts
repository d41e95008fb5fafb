import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { PortalPage, PortalRequest } from '../../contract/proxy-api.js';
import { getBillingConfig, resolveEndpoint } from '../../client/config.js';
import { BillingError, toBillingError } from '../../client/errors.js';
import { BillingErrorEvent, type BillingUpdatedEvent } from '../../client/events.js';
import { followLang, message, messageOr, registerTexts } from '../../client/i18n.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import {
  DEFAULT_PORTAL_CONTAINER_ID,
  embedPortal,
  followableOrThrow,
  registerPortalHost,
  type EmbedPortalOptions,
  type PortalHost,
} from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore, type UsageStoreState } from '../../client/usage-store.js';
import { CallToAction, type Remedy } from '../shared/call-to-action.js';
import { defineElement } from '../shared/define.js';
import { focusReturnPath, returnFocus } from '../shared/focus.js';
import { warnOnce } from '../shared/warn.js';
import { portalTexts } from './messages.js';
import { billingPortalStyles } from './styles.js';
import { portalHint, refusalText, retryHelps, taskTitle } from './wording.js';

export type PortalMode = 'embed' | 'link';
type PortalState = 'idle' | 'loading' | 'open' | 'error';

/** The remedies an embedded portal handles in its own pages. */
const PORTAL_REMEDIES: readonly Remedy[] = ['pay-invoice', 'restart', 'subscribe', 'register'];

/** How long the element waits for the other signals of the same change (see `#scheduleCheck`). */
const SETTLE_MS = 300;

/**
 * What the usage store says of the customer's billing, without when it was read: two states of
 * the same billing give the same text (see `#followBilling`).
 */
function billingOf(state: UsageStoreState): string | null {
  if (state.status !== 'ready') return null;
  const { usages, subscription, pendingFeatures, paymentCappingReached, suspensionReason } = state;
  return JSON.stringify([
    usages,
    subscription,
    pendingFeatures,
    paymentCappingReached,
    suspensionReason,
  ]);
}

/**
 * Makes a new portal the modal one of `openPortalPage` (open.ts): it renders itself in a modal
 * dialog titled by its task (or `title`) with a Close button (Done once a workflow completes),
 * and once closed leaves the page and gives the focus back to `opener` (or, when the opener left
 * meanwhile, to the element that held it).
 */
export let makeModal: (
  portal: BillingPortal,
  opener: Element | null,
  title: string | undefined,
) => void;

/**
 * The billing service's customer portal, in the page. In `embed` mode it loads the service's
 * portal script (once per page), then adds the container the script looks for to its light DOM
 * (so `document.getElementById` finds it) and opens the page: until a page opens, its light DOM
 * holds only what the host put there, so a framework hydrating server-rendered HTML finds it as
 * it rendered it; in `link` mode it renders an
 * in-site link to the page instead. Remedies of the other elements (change plan, add a payment
 * method...) open here when an embedding `<billing-portal>` is on the page.
 *
 * The embedded home page follows the customer's billing: when it changes (a change made on the
 * page, or one the proxy's event stream tells: the usage store's re-read, `billing-updated`), the
 * home page is opened again out of sight and takes the old one's place once loaded, with no
 * empty frame, no scroll and no focus moved. A frame that is not at rest is left alone: another
 * page the customer went on to inside it (a form, a payment: the frame's page loads, or the
 * portal script's `service-portal:page`, tell), a workflow page the element opened, or a frame
 * holding the focus; a page loaded after the change shows it already, and a home page left stale
 * is refreshed once the focus leaves the frame.
 *
 * @tag billing-portal
 * @summary Embeds the customer portal (or links to it) on a given page or workflow.
 *
 * @attribute nonce - CSP nonce given to the portal script element (read through the native `nonce` property, which survives the browser's hiding of the attribute).
 *
 * @slot error - Replaces the sentence of the error state.
 * @slot retry - Label of the retry button.
 * @slot link - Text of the link in `link` mode (default: the page's name, e.g. "Manage billing").
 * @slot portal - Holds the script's container; the element puts it there itself, when a page opens.
 *
 *
 * @event billing-portal-ready - The hosted page is shown (again after a refresh of the home page). `detail`: `{ page }`.
 * @event billing-portal-complete - A hosted workflow completed; the usages refresh. `detail`: `{ page, workflow }`.
 * @event billing-error - The portal could not be opened. `detail`: `{ error }`.
 * @event service-portal:complete - The portal script's own event, bubbling from the container. `detail`: `{ workflow }`.
 * @event service-portal:escape - The portal script's own event (the sandbox's sends it), bubbling from the container: Escape was pressed inside the frame; the modal closes.
 * @event service-portal:page - The portal script's own event (the sandbox's sends it), bubbling from the container: a page is shown. `detail`: `{ title, opened }`; the modal's title follows a page the customer moved on to (`opened: false`).
 *
 * @csspart base - The wrapper of the element's own UI.
 * @csspart frame - The area the portal renders into (around the light-DOM container).
 * @csspart status - The loading placeholder.
 * @csspart message - The error state.
 * @csspart button - Every button.
 * @csspart retry - The retry button (also `button`).
 * @csspart link - The in-site link (`link` mode).
 * @csspart dialog - The modal dialog of a portal opened by `openPortalPage` when the page has no `<billing-portal>`.
 * @csspart dialog-title - The modal dialog's title: the task ("Restart your subscription").
 * @csspart close - The modal dialog's Close button, Done once the workflow completed (also `button`).
 *
 * @cssproperty --billing-accent - Buttons, the link and focus ring. Default #4f46e5 (#8b87f7 dark).
 * @cssproperty --billing-on-accent - Text on the accent. Default #fff.
 * @cssproperty --billing-critical - Border of the error state. Default #b42318.
 * @cssproperty --billing-radius - Corner radius. Default 8px.
 * @cssproperty --billing-space - Spacing unit (a 4px grid). Default 4px.
 * @cssproperty --billing-font-size - Base font size. Default 1em (inherited).
 * @cssproperty --billing-muted-color - Secondary text. Default currentColor at 68%.
 * @cssproperty --billing-focus-color - The focus ring's colour (a 2px outline, 2px away). Default the accent.
 * @cssproperty --billing-focus-ring - A box-shadow added to the focus ring. Default none.
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
 * @cssproperty --billing-backdrop - The modal dialog's backdrop (a portal opened by `openPortalPage`).
 * @cssproperty --billing-surface - Background of the modal dialog. Default Canvas.
 * @cssproperty --billing-on-surface - Text of the modal dialog. Default CanvasText.
 * @cssproperty --billing-border-color - The modal dialog's hairline. Default currentColor at 16%.
 * @cssproperty --billing-duration - Length of the buttons' transitions. Default 180ms (none under reduced motion).
 * @cssproperty --billing-portal-min-height - Space kept for the portal while it loads. Default 24rem.
 */
export class BillingPortal extends LitElement implements PortalHost {
  static override styles = billingPortalStyles;

  static {
    registerSharedTexts();
    registerTexts(portalTexts, { fr: () => import('./messages.fr.js') });
    makeModal = (portal, opener, title) => {
      portal.#modal = true;
      portal.#focusReturn = focusReturnPath(opener);
      portal.#title = title;
    };
  }

  // String is Lit's default type: only Number properties name theirs.
  static override properties = {
    theme: { reflect: true },
    page: { reflect: true },
    offer: {},
    subscription: { type: Number },
    invoice: { type: Number },
    scriptGlobal: { attribute: 'script-global' },
    containerId: { attribute: 'container-id' },
    mode: { reflect: true },
    endpoint: {},
    state: { reflect: true },
    error: { attribute: false },
    href: { attribute: false },
  };

  /** Registers the element as `tag`; does nothing when this class already holds the tag. */
  static define(tag = 'billing-portal', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** The modal dialog, rendered only by a modal portal. */
  get #dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  /** Portal page: `home`, `offers`, `subscribe`, `register`, `change-plan`, `restart` or `pay-invoice`. */
  page: PortalPage = 'home';
  /** Offer reference, for `subscribe` and `change-plan` to a given plan. */
  offer: string | undefined;
  /** Id of a custom subscription, for `change-plan` to it. */
  subscription: number | undefined;
  /** Id of the invoice to pay, for `pay-invoice`. */
  invoice: number | undefined;
  /** Name of the global the portal script defines (default: `ServicePortal`, or the page's configuration). */
  scriptGlobal: string | undefined;
  /** Id of the container the script renders into (default `service_portal`); unique in the document. */
  containerId: string = DEFAULT_PORTAL_CONTAINER_ID;
  /** `embed` (default) shows the portal here; `link` renders an in-site link to it. */
  mode: PortalMode = 'embed';
  /** Location of the billing proxy; defaults to the page's (`configureBilling`), else `/billing`. */
  endpoint: string | undefined;
  /** `light` or `dark` forces a color scheme (the hosted page's too); unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Read-only: `idle`, `loading`, `open` or `error`, reflected for styling. */
  state: PortalState = 'idle';
  /** Read-only: the last failure, in the `error` state. */
  error: BillingError | null = null;
  /** Read-only: the in-site address, in `link` mode. */
  href: string | null = null;

  // `nonce` is not a reactive property on purpose: the browser blanks the attribute of every
  // element once inserted under a CSP header, and only the native `nonce` property keeps it.

  /** The element the portal script renders into (light DOM, findable by id); null until a page opens. */
  get container(): HTMLElement | null {
    return this.#container;
  }

  /** The request the attributes describe. */
  get request(): PortalRequest {
    const request: PortalRequest = { page: this.page };
    if (this.offer) request.offer = this.offer;
    if (Number.isInteger(this.subscription)) request.subscription = this.subscription as number;
    if (Number.isInteger(this.invoice)) request.invoice = this.invoice as number;
    return request;
  }

  #container: HTMLElement | null = null;
  /** Aborted when another opening starts, or the element leaves the document. */
  #opening: AbortController | null = null;
  #unregister: (() => void) | null = null;
  /** Settles the promise of the last `openPage` not yet settled. */
  #pending: ((error?: BillingError) => void) | null = null;
  /** Owns the remedies the portal's pages handle, for the page's other elements. */
  readonly #callToAction = new CallToAction(this);
  /** A portal of `openPortalPage`'s own, shown in a modal dialog. */
  #modal = false;
  /** Where the focus returns when the modal closes: the opener, then the elements holding it. */
  #focusReturn: Element[] = [];
  /** The modal's title given by its opener; unset, the task's (taskTitle). */
  #title: string | undefined;
  /** A workflow completed in the modal: its button says Done. */
  #completed = false;
  /** The hosted title of the page opened (see `service-portal:page`). */
  #openedTitle: string | undefined;
  /** The title of the page shown now, once the customer went on to another kind: the modal's. */
  #pageTitle: string | undefined;
  /** Stops following the customer's billing (see `#followBilling`). */
  #unfollow: (() => void) | null = null;
  /** The endpoint followed, null when none. */
  #followed: string | null = null;
  /** The customer's billing changed after the page shown was loaded. */
  #stale = false;
  /** The frame shows another page than the one opened (the customer went on inside it). */
  #movedOn = false;
  /** The portal script names its pages (`service-portal:page`): they tell where the frame is. */
  #namesPages = false;
  /** Pages the frame loaded since the opening (its iframe's `load` events). */
  #loads = 0;
  /**
   * The frame opened has shown its first page (or was given up waiting for it): until then the
   * loading status stays over it, rather than an empty frame.
   */
  #frameShown = false;
  /** A refresh of the page at rest under way, out of sight (see `#refreshQuietly`). */
  #refreshing: AbortController | null = null;
  /** The container that refresh loads into, until it takes the shown one's place. */
  #next: HTMLElement | null = null;
  /** A look at whether the frame can be refreshed is due (see `#scheduleCheck`). */
  #checkTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    followLang(this);
    // The modal has done its job once a workflow completes: its button becomes Done.
    this.addEventListener('billing-portal-complete', () => {
      this.#completed = this.#modal;
      this.requestUpdate();
    });
    // A portal script that can (the sandbox's) names each page it shows. The page opened is the
    // task the modal was opened for, titled in the element's words, and so is every page of the
    // same title (the next invoice to pay); once the customer moves on to another (paid invoices
    // lead to the restart), the modal takes that page's title.
    this.addEventListener('service-portal:page', (event) => {
      const detail = (event as CustomEvent<{ title?: unknown; opened?: unknown } | null>).detail;
      const title = detail?.title;
      if (typeof title !== 'string' || !title || !this.#shows(event.target)) return;
      if (detail?.opened !== false) this.#openedTitle = title;
      this.#pageTitle = title === this.#openedTitle ? undefined : title;
      this.requestUpdate();
    });
    // Escape pressed inside the frame (a portal script that tells it: the sandbox's) closes the
    // modal, as Escape anywhere else in it does.
    this.addEventListener('service-portal:escape', (event) => {
      if (this.#modal && this.#shows(event.target)) this.#dialog.close();
    });
    // Where the frame is, whatever the portal script: each page it loads, and the pages a script
    // names. A page loaded now shows the billing as it is now.
    this.addEventListener(
      'load',
      (event) => {
        if (!this.#shows(event.target)) return;
        if (!this.#frameShown) this.#showFrame();
        this.#loads += 1;
        if (!this.#namesPages && this.#loads > 1) this.#movedOn = true;
        this.#stale = false;
      },
      true,
    );
    this.addEventListener('service-portal:page', (event) => {
      if (!this.#shows(event.target)) return;
      const detail = (event as CustomEvent<{ title?: unknown; opened?: unknown } | null>).detail;
      const title = detail?.title;
      this.#namesPages = true;
      // The page opened, or one of the same title the customer came back to.
      this.#movedOn =
        detail?.opened === false && (typeof title !== 'string' || title !== this.#openedTitle);
      this.#stale = false;
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#syncRegistration();
    this.#followBilling();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#opening?.abort();
    this.#stopRefresh();
    clearTimeout(this.#checkTimer);
    this.#syncRegistration();
    this.#followBilling();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('mode')) this.#syncRegistration();
    if (changed.has('mode') || changed.has('endpoint')) this.#followBilling();
    // Opening here rather than in updated(): its first step sets `state`, which then renders
    // in this same update instead of scheduling another.
    const watched = [
      'page',
      'offer',
      'subscription',
      'invoice',
      'mode',
      'endpoint',
      'containerId',
    ] as const;
    if (watched.some((name) => changed.has(name)) && !this.#pending) this.reload();
  }

  protected override firstUpdated(): void {
    if (this.#modal) this.#dialog.showModal();
  }

  /**
   * Shows a portal page here (what `openPortalPage` calls), brings it into view, and
   * resolves once the page is opened.
   */
  openPage(request: PortalRequest): Promise<void> {
    this.#completed = false;
    this.mode = 'embed';
    this.page = request.page;
    this.offer = request.offer;
    this.subscription = request.subscription;
    this.invoice = request.invoice;
    // Aligned to the top of the view (the default `block`). The modal is in view already, and
    // its host, at the end of the body, would scroll the page under it.
    if (!this.#modal) {
      const reduced = matchMedia('(prefers-reduced-motion:reduce)').matches;
      this.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth' });
    }
    return new Promise<void>((resolve, reject) => {
      this.#pending?.(new BillingError('aborted', 'Superseded'));
      this.#pending = (error) => (error ? reject(error) : resolve());
      this.reload();
    });
  }

  /** Opens the current page again (the retry button does this). */
  reload(): void {
    void this.#open();
  }

  /** Connected in embed mode, the element is where `openPortalPage` opens pages. */
  #syncRegistration(): void {
    // An embedded portal on the page is where payments and the subscription are handled: the
    // other elements of its region leave those remedies to it (call-to-action.ts). The modal
    // portal is what a remedy opens, not a place of the page.
    this.#callToAction.owns(this.mode === 'link' || this.#modal ? [] : PORTAL_REMEDIES);
    if (this.isConnected && this.mode !== 'link') {
      this.#unregister ??= registerPortalHost(this);
    } else {
      this.#unregister?.();
      this.#unregister = null;
    }
  }

  #ensureContainer(): HTMLElement {
    if (this.#container?.parentElement !== this) {
      const container = document.createElement('div');
      container.slot = 'portal';
      container.className = 'billing-portal-container';
      this.append(container);
      this.#container = container;
    }
    this.#container.id = this.containerId || DEFAULT_PORTAL_CONTAINER_ID;
    return this.#container;
  }

  /** Opens the page: embedded (the portal script renders into the container) or as a link. */
  async #open(): Promise<void> {
    this.#opening?.abort();
    const opening = new AbortController();
    this.#opening = opening;
    const { signal } = opening;
    this.#openedTitle = this.#pageTitle = undefined;
    this.#stopRefresh();
    this.#resetPosition();
    this.state = 'loading';
    this.#frameShown = false;
    this.error = null;
    this.href = null;
    try {
      if (this.mode === 'link') {
        this.#container?.replaceChildren();
        const { url, hostedOrigin } = await getProxyClient(this.endpoint).getLinks(
          this.request,
          signal,
        );
        this.href = followableOrThrow(url, hostedOrigin ? [hostedOrigin] : []);
      } else {
        // Made only once the script is loaded: until a page opens, the light DOM is the host's.
        await embedPortal(this.#embedding(() => this.#ensureContainer(), signal));
      }
      if (signal.aborted) return;
      this.state = 'open';
      // A frame that never says it loaded (a page the browser blocked) is shown after a while,
      // unless another opening has taken its place by then.
      setTimeout(() => {
        if (!signal.aborted) this.#showFrame();
      }, getBillingConfig().portalScriptTimeoutMs);
      this.#settle();
    } catch (reason) {
      if (signal.aborted) return;
      this.#fail(toBillingError(reason));
    }
  }

  /** True when `target` is in the container shown (not in one a refresh is loading). */
  #shows(target: EventTarget | null): boolean {
    return target instanceof Node && this.#container?.contains(target) === true;
  }

  /** A new page is shown: it is the one opened, loaded now. */
  #resetPosition(): void {
    this.#movedOn = this.#namesPages = this.#stale = false;
    this.#loads = 0;
  }

  /**
   * Follows the customer's billing while connected in embed mode (the modal shows a workflow):
   * a change of what the usage store holds (a purchase on the page or in another tab, a
   * completed workflow, a re-read after a live signal), and `billing-updated` (the proxy's
   * event stream: also what the usages do not show, such as a paid invoice or a new card).
   */
  #followBilling(): void {
    const follows = this.isConnected && this.mode !== 'link' && !this.#modal;
    const endpoint = follows ? resolveEndpoint(this.endpoint) : null;
    if (endpoint === this.#followed) return;
    this.#unfollow?.();
    this.#unfollow = null;
    this.#followed = endpoint;
    if (endpoint === null) return;
    const store = getUsageStore(endpoint);
    let known = billingOf(store.state);
    const unsubscribe = store.subscribe((state) => {
      const billing = billingOf(state);
      if (billing === null) return;
      // The first billing known is a baseline, not a change.
      if (known !== null && billing !== known) this.#billingChanged();
      known = billing;
    });
    const onUpdated = (event: Event) => {
      if ((event as BillingUpdatedEvent).detail?.endpoint === endpoint) this.#billingChanged();
    };
    // The focus came to the page (not every engine says that it left a frame: Firefox does
    // not): a home page left stale while the customer was in the frame is refreshed now.
    const onFocus = () => {
      if (this.#stale) this.#scheduleCheck();
    };
    document.addEventListener('billing-updated', onUpdated);
    document.addEventListener('focusin', onFocus);
    this.addEventListener('focusout', onFocus);
    this.#unfollow = () => {
      unsubscribe();
      document.removeEventListener('billing-updated', onUpdated);
      document.removeEventListener('focusin', onFocus);
      this.removeEventListener('focusout', onFocus);
    };
  }

  #billingChanged(): void {
    this.#stale = true;
    this.#scheduleCheck();
  }

  /**
   * Looks whether the frame can be refreshed once the signals of a change have come: one change
   * is often told twice in quick succession (the proxy's own signal, then the service's
   * notification), and makes one refresh.
   */
  #scheduleCheck(): void {
    clearTimeout(this.#checkTimer);
    this.#checkTimer = setTimeout(() => {
      if (this.#stale && !this.#refreshing && this.#atRest()) void this.#refreshQuietly();
    }, SETTLE_MS);
  }

  /**
   * The frame shows a page at rest: the home page opened here, still shown (the customer did
   * not go on inside the frame), and the customer is not in it (it does not hold the focus).
   */
  #atRest(): boolean {
    const container = this.#container;
    return (
      this.state === 'open' &&
      this.page === 'home' &&
      !this.#modal &&
      this.mode !== 'link' &&
      !this.#movedOn &&
      container !== null &&
      !container.contains(document.activeElement)
    );
  }

  /**
   * Opens the page again in a container of its own, out of sight where the old one is (so the
   * hosted page lays out at its width and height), then puts it in the old one's place: the
   * frame never shows empty, and nothing takes the focus or scrolls. A refresh that fails leaves
   * the page shown as it was.
   */
  async #refreshQuietly(): Promise<void> {
    const shown = this.#container!;
    const refresh = new AbortController();
    this.#refreshing = refresh;
    const { signal } = refresh;
    this.#stale = false;
    const next = document.createElement('div');
    next.slot = 'portal';
    next.className = shown.className;
    next.id = `${shown.id}-refresh`;
    // Out of flow at the old one's place and width, invisible (nor focusable, nor read).
    Object.assign(next.style, {
      position: 'absolute',
      visibility: 'hidden',
      pointerEvents: 'none',
      width: `${shown.getBoundingClientRect().width}px`,
    });
    shown.before(next);
    this.#next = next;
    const loaded = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new BillingError('timeout', 'Portal refresh timeout')),
        getBillingConfig().portalScriptTimeoutMs,
      );
      next.addEventListener(
        'load',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { capture: true, once: true },
      );
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    });
    loaded.catch(() => undefined);
    try {
      await embedPortal(this.#embedding(next, signal));
      await loaded;
      // The size the hosted page tells as it loads may come just after its load event.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } catch {
      if (this.#refreshing === refresh) this.#stopRefresh();
      return;
    }
    if (signal.aborted) return;
    this.#refreshing = this.#next = null;
    next.removeAttribute('style');
    shown.remove();
    next.id = shown.id;
    this.#container = next;
    const stale = this.#stale;
    this.#resetPosition();
    // A change told while the page loaded may be newer than what it shows.
    this.#stale = stale;
    this.#scheduleCheck();
  }

  /**
   * What embedPortal needs to open this element's page in `container`. Unset or empty, the
   * nonce and the global are left to its defaults.
   */
  #embedding(container: EmbedPortalOptions['container'], signal: AbortSignal): EmbedPortalOptions {
    return {
      container,
      request: this.request,
      endpoint: this.endpoint,
      signal,
      eventTarget: this,
      nonce: this.nonce,
      globalName: this.scriptGlobal,
      // The page's CSP blocked the hosted page after the opening: that is the state to show.
      onBlocked: (error) => {
        if (!signal.aborted) this.#fail(error);
      },
    };
  }

  /** Gives up a refresh under way, and the container it was loading. */
  #stopRefresh(): void {
    this.#refreshing?.abort();
    this.#next?.remove();
    this.#refreshing = this.#next = null;
  }

  /** The error state: the console line of a setup mistake, `billing-error`, openPage rejected. */
  #fail(error: BillingError): void {
    this.state = 'error';
    this.error = error;
    warnOnce(portalHint(error, this.page, this.localName));
    // Built apart: the manifest analyzer reads `dispatchEvent(new X(arg))` as an event named by `arg`.
    const event = new BillingErrorEvent({ error });
    this.dispatchEvent(event);
    this.#settle(error);
  }

  #settle(error?: BillingError): void {
    // Resolving or rejecting runs no code before this returns.
    this.#pending?.(error);
    this.#pending = null;
  }

  /** The modal closed (Close, Done, Escape): the portal leaves the page, the focus goes back. */
  #onModalClose(): void {
    this.remove();
    returnFocus(this.#focusReturn);
  }

  #renderError(): TemplateResult {
    const error = this.error ?? new BillingError('portal-open-failed', 'Unknown');
    return html`<div class="message" part="message">
      <p role="alert"><slot name="error">${refusalText(this, error, this.page)}</slot></p>
      ${
        retryHelps(error)
          ? html`<button type="button" class="primary" part="button retry" @click=${this.reload}>
              <slot name="retry">${message(this, 'retry')}</slot>
            </button>`
          : nothing
      }
    </div>`;
  }

  #renderLink(): TemplateResult {
    if (this.state === 'error') return this.#renderError();
    // A page without a link text (not a portal page) reads as the home page's.
    const label = messageOr(this, `portal.link.${this.page}`, 'portal.link.home');
    if (!this.href) {
      return html`<span class="skeleton link-skeleton" aria-busy="true"
        ><span class="visually-hidden">${message(this, 'loading')}</span></span
      >`;
    }
    return html`<a class="primary" part="link" href=${this.href}
      ><slot name="link">${label}</slot></a
    >`;
  }

  #showFrame(): void {
    this.#frameShown = true;
    this.requestUpdate();
  }

  #renderEmbed(): TemplateResult {
    // Open, its frame not loaded yet: the status says it is loading, in place of the frame.
    const framing =
      this.state === 'open' && !this.#frameShown && !!this.#container?.querySelector('iframe');
    const loading = this.state === 'loading' || this.state === 'idle' || framing;
    return html`<div
      class="portal"
      part="base"
      data-state=${this.state}
      data-framing=${framing ? '' : nothing}
    >
      ${
        loading
          ? html`<div class="status" part="status" role="status" aria-busy="true">
              <span>${message(this, 'portal.loading')}</span>
              <span class="skeleton" aria-hidden="true"></span>
              <span class="skeleton" aria-hidden="true"></span>
            </div>`
          : nothing
      }
      ${this.state === 'error' ? this.#renderError() : nothing}
      <div class="frame" part="frame" ?hidden=${this.state === 'error'}>
        <slot name="portal"></slot>
      </div>
    </div>`;
  }

  override render(): TemplateResult {
    const body = this.mode === 'link' ? this.#renderLink() : this.#renderEmbed();
    if (!this.#modal) return body;
    const done = this.#completed;
    return html`<dialog part="dialog" aria-labelledby="title" @close=${this.#onModalClose}>
      <header>
        <h2 id="title" part="dialog-title">
          ${this.#pageTitle ?? this.#title ?? taskTitle(this, this.request)}
        </h2>
        <button
          type="button"
          class=${done ? 'primary' : 'secondary'}
          part="button close"
          @click=${() => this.#dialog.close()}
        >
          ${message(this, done ? 'portal.done' : 'close')}
        </button>
      </header>
      ${body}
    </dialog>`;
  }
}
