import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Usage } from '../../contract/resources.js';
import type { BillingError } from '../../client/errors.js';
import {
  BillingErrorEvent,
  BillingThresholdEvent,
  type ThresholdDetail,
  type ThresholdLevel,
} from '../../client/events.js';
import {
  formatDate,
  formatNumber,
  formatPercent,
  message,
  registerTexts,
  type MessageKey,
  type MessageVars,
  followLang,
} from '../../client/i18n.js';
import { isUnlimited, type UsageStore, type UsageStoreState } from '../../client/usage-store.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { CallToAction, Remedy } from '../shared/call-to-action.js';
import { defineElement } from '../shared/define.js';
import { fillTemplate } from '../shared/template.js';
import { meterTexts } from './messages.js';
import type * as Notices from './notices.js';
import type * as Overrun from './overrun.js';
import { usageMeterStyles } from './styles.js';
import { levelOf } from './thresholds.js';

/**
 * The module that draws the states other than figures (see notices.ts), once imported: shared
 * by every meter of the page.
 */
let notices: typeof Notices | undefined;
/** The import of notices.ts while it is under way. */
let noticesLoading: Promise<void> | undefined;

/** Imports notices.ts once for the page; a failed import is tried again on the next call. */
function loadNotices(): Promise<void> {
  noticesLoading ??= import('./notices.js').then(
    (module) => {
      notices = module;
    },
    (error: unknown) => {
      noticesLoading = undefined;
      console.error('[billing-elements] <usage-meter> could not load its states:', error);
    },
  );
  return noticesLoading;
}

/**
 * The module that tells what a use at or past the plan's limit costs and the way out (see
 * overrun.ts), once imported: by the first meter at its critical level, for the page.
 */
let overrun: typeof Overrun | undefined;

/** How long a crossing's announcement stays in the live region: long enough to be said. */
const ANNOUNCEMENT_MS = 5000;

/** Loads a store's usages; a failure does not escape: it shows (and is reported) from its state. */
function load(store: UsageStore): void {
  store.load().catch(() => undefined);
}

/**
 * What the signed-in customer's plan includes of a feature, and how much of it is used.
 * A quantity (`Limitation`) is a meter with "3 of 5"-style figures; a consumption shows what
 * was used of what is included and when it resets; an on/off feature shows whether it is
 * included. Without `feature`, every feature of the plan is listed. All meters of a page
 * share one request to the proxy.
 *
 * @tag usage-meter
 * @summary Shows the customer's usage of a feature (or of every feature) against the plan.
 *
 * @slot label - Replaces the feature's title (with `feature` set).
 * @slot not-in-plan - Replaces the sentence shown when the plan does not include the feature.
 * @slot change-plan - Label of the button that opens the change-plan workflow.
 * @slot error - Replaces the sentence of the error state.
 * @slot retry - Label of the retry button.
 * @slot empty - Replaces the sentence shown when the plan has no feature (list mode).
 *
 * @event billing-threshold - A feature crossed the warning or critical threshold, either way. `detail`: `{ feature, level, previousLevel, ratio }`.
 * @event billing-remedy - The user asked for a portal workflow (change plan, restart...). Cancelable: call `preventDefault()` to open it yourself. `detail`: `{ page, code?, feature?, offer? }` (`offer`: the plan a suggested switch moves to).
 * @event billing-error - The usages could not be loaded. `detail`: `{ error, feature? }`.
 *
 * @csspart meter - One feature's block (label, figures, track, detail).
 * @csspart header - The line with the label and the level.
 * @csspart label - The feature's title.
 * @csspart level - The "80% used" / "Limit reached" text shown past a threshold.
 * @csspart figures - The "3 of 5" line.
 * @csspart value - The used figure.
 * @csspart total - The included figure.
 * @csspart of - The words between and around the figures.
 * @csspart unlimited - The "Unlimited" badge.
 * @csspart track - The meter's track (carries role="meter").
 * @csspart fill - The meter's filled part.
 * @csspart extra - The use beyond the included quantity: the figure after "of", and the fill's part past the included quantity (also `fill`).
 * @csspart detail - The line under the meter (reset date).
 * @csspart overrun - Under a consumption past what the plan includes, or at the plan's cap: what the use beyond it costs so far, that further use is refused at the cap, and the plan that includes it, at the cap or once it costs less (or the pointer).
 * @csspart pointer - "See what to do": the quiet link to the element of the region that offers the plan change (see `data-billing-region`).
 * @csspart switch - An on/off feature's line.
 * @csspart state - An on/off feature's "Included" / "Not included" badge.
 * @csspart covered - A meter whose state another element of the page region tells with its remedy (no subscription, a plan without the feature, an error): its label and a dash, or "Not included".
 * @csspart list - The list of every feature (without `feature`).
 * @csspart item - One feature of the list.
 * @csspart message - The not-in-plan, empty and error states.
 * @csspart button - Every button.
 * @csspart remedy - The button that opens a portal workflow: change plan, restart... (also `button`).
 * @csspart retry - The retry button of the error state (also `button`).
 * @csspart sign-in - The sign-in link of the signed-out state (also `button`).
 * @csspart skeleton - The placeholder shown while loading.
 *
 * @cssproperty --billing-accent - Meter fill, buttons and focus ring. Default #4f46e5 (#8b87f7 dark).
 * @cssproperty --billing-on-accent - Text on the accent. Default #fff.
 * @cssproperty --billing-warning - Fill and level text past the warning threshold. Default #b54708.
 * @cssproperty --billing-critical - Fill and level text past the critical threshold. Default #b42318.
 * @cssproperty --billing-success - Dot of an included on/off feature. Default #067647.
 * @cssproperty --billing-extra - The fill of the use beyond the included quantity. Default currentColor at 45%.
 * @cssproperty --billing-radius - Corner radius of buttons. Default 8px.
 * @cssproperty --billing-space - Spacing unit (a 4px grid). Default 4px.
 * @cssproperty --billing-font-size - Base font size. Default 1em (inherited).
 * @cssproperty --billing-figure-size - Size of the figures. Default 1.75em.
 * @cssproperty --billing-track-height - Height of the meter track. Default 8px.
 * @cssproperty --billing-track-color - Colour of the empty track. Default currentColor at 12%.
 * @cssproperty --billing-border-color - Hairlines between features. Default currentColor at 16%.
 * @cssproperty --billing-muted-color - Secondary text. Default currentColor at 68%.
 * @cssproperty --billing-focus-color - The focus ring's colour (a 2px outline, 2px away). Default the accent.
 * @cssproperty --billing-focus-ring - A box-shadow added to the focus ring. Default none.
 * @cssproperty --billing-duration - Length of the fill animation and the buttons' transitions. Default 180ms (none under reduced motion).
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
 */
export class UsageMeter extends LitElement {
  static override styles = usageMeterStyles;

  static {
    registerTexts(meterTexts, { fr: () => import('./messages.fr.js') });
  }

  // String is Lit's default type: only Number properties name theirs.
  static override properties = {
    theme: { reflect: true },
    feature: { reflect: true },
    endpoint: {},
    label: {},
    warningThreshold: { type: Number, attribute: 'warning-threshold' },
    criticalThreshold: { type: Number, attribute: 'critical-threshold' },
    level: { reflect: true },
    signInUrl: { attribute: 'sign-in-url' },
    onOff: { type: Boolean, attribute: 'on-off' },
    state: { reflect: true },
    announcement: { state: true },
  };

  /** Registers the element as `tag`; does nothing when this class already holds the tag. */
  static define(tag = 'usage-meter', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** Reference of the feature to show (`ReferenceFeature`); without it, every feature is listed. */
  feature = '';
  /** Location of the billing proxy; defaults to the page's (`configureBilling`), else `/billing`. */
  endpoint: string | undefined;
  /** `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Title to show instead of the service's (used too when the plan lacks the feature). */
  label: string | undefined;
  // The two thresholds' defaults are thresholds.ts's, written out for the reference to show them.
  /** Share of the included quantity from which a Consumption warns (0.8 = 80 %); a Limitation, which the customer chose, never does. */
  warningThreshold = 0.8;
  /** Share of the included quantity from which a Consumption is critical (1 = all used). */
  criticalThreshold = 1;
  /** Read-only: `normal`, `warning` or `critical` (the worst one in list mode), reflected for styling. */
  level: ThresholdLevel = 'normal';
  /** Where a signed-out customer signs in; defaults to the page's (`configureBilling({ signInUrl })`). */
  signInUrl: string | undefined;
  /**
   * Says that `feature` is an on/off feature, before the usages tell: the skeleton is then one
   * line, the shape of its Included badge, rather than a meter's. A layout hint only: what the
   * meter shows once loaded follows the service.
   */
  onOff = false;
  /**
   * Read-only, reflected for styling: what the meter shows. `loading`, `ready`, `pending`
   * (allowances of a plan whose checkout is not complete), `no-subscription`, `not-in-plan`,
   * `signed-out`, `unavailable` (misconfigured: see the console), `error`, or `covered` (another
   * element of the page region offers the remedy of what this one would say: no subscription,
   * a plan without the feature, a failure; see `data-billing-region`).
   */
  state: MeterState = 'loading';
  /**
   * The last crossing, read out by the polite live region; none at first (Lit renders as for '').
   * Cleared a few seconds after it is said: the figures move on, and a screen reader browsing
   * the meter later would read a percentage that is no longer true.
   */
  protected announcement: string | undefined;
  #announced: ReturnType<typeof setTimeout> | undefined;

  /** The usage shown (with `feature`), once loaded. */
  get usage(): Usage | undefined {
    return this.feature ? this.#usages.get(this.feature) : undefined;
  }

  /**
   * The page's usage store for the endpoint, followed while connected: loaded when the meter
   * starts following it (one request for the whole page).
   */
  readonly #store = new UsageStoreController(this, (state) => this.#onStoreChange(state), load);
  /** Last level seen per feature: a change of level is a crossing, announced once. */
  #levels = new Map<string, ThresholdLevel>();
  /** Last text key seen per feature (see Reading.key): a change is announced once. */
  #keys = new Map<string, string>();
  /** Crossings seen by willUpdate, dispatched as events once the update is done. */
  #crossings: ThresholdDetail[] = [];
  /** What willUpdate read of the usages shown, for render. */
  #readings: Reading[] = [];
  #reportedError: BillingError | null = null;
  /**
   * Offers the meter's remedy, or leaves it to the element of the region that does; made with
   * notices.ts, which every state with a remedy needs (a page of figures loads neither).
   */
  #callToAction: CallToAction | undefined;
  /** The meter offers the remedy of its state in its region (call-to-action.ts). */
  #speaks = true;
  /** The state a covered meter stands back from. */
  #covering: MeterState = 'loading';
  /**
   * The service's offers, once asked for a feature the customer lacks (null: no catalogue): do
   * they know the feature, and which plan includes it.
   */
  #offers: readonly Offer[] | null | undefined;
  #askedCatalogue = false;
  /** Set while a state waits for notices.ts: resolves once it is loaded and an update asked. */
  #noticesWait: Promise<void> | undefined;

  constructor() {
    super();
    followLang(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // No timer outlives the meter in the page; its words go with it, so that a meter put back
    // later does not keep them for good.
    clearTimeout(this.#announced);
    this.announcement = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another proxy (the meter follows its store from the first read below): what the offers
    // said was another's.
    if (changed.has('endpoint') && this.hasUpdated) {
      this.#offers = undefined;
      this.#askedCatalogue = false;
    }
    // New thresholds move the baseline; only a change of usage counts as a crossing.
    if (changed.has('warningThreshold') || changed.has('criticalThreshold')) {
      this.#levels.clear();
      this.#keys.clear();
    }
    const announcements: string[] = [];
    // The worst level shown: critical wins, then warning.
    let worst: ThresholdLevel = 'normal';
    this.#readings = this.#shownUsages().map((usage) => {
      const reading = this.#read(usage);
      const { level, ratio } = reading;
      if (level === 'critical' || worst === 'normal') worst = level;
      const feature = usage.ReferenceFeature;
      const previousLevel = this.#levels.get(feature);
      const previousKey = this.#keys.get(feature);
      this.#levels.set(feature, level);
      this.#keys.set(feature, reading.key);
      if (previousLevel && previousLevel !== level)
        this.#crossings.push({ feature, level, previousLevel, ratio });
      // Said when what it says changes: all included in use, or bought beyond, is no level.
      if (previousKey && previousKey !== reading.key)
        announcements.push(
          message(this, `meter.announce.${reading.key}` as MessageKey, reading.vars),
        );
      return reading;
    });
    this.level = worst;
    if (announcements.length) {
      this.announcement = announcements.join(' ');
      clearTimeout(this.#announced);
      this.#announced = setTimeout(() => (this.announcement = undefined), ANNOUNCEMENT_MS);
    }
    const state = this.#stateOf();
    if (!notices && state !== 'loading' && state !== 'ready') {
      // A state drawn by notices.ts, not loaded yet: the skeleton stays until it is, so the
      // meter goes straight from its skeleton to the state, as when the state comes late.
      this.state = 'loading';
      this.#noticesWait ??= loadNotices().then(() => {
        this.#noticesWait = undefined;
        this.requestUpdate();
      });
      return;
    }
    // One cause, one message per region (call-to-action.ts): the element that offers its remedy
    // says it, the other meters step back. A pending plan's terms show either way; a meter says
    // when they start only when no other element of its region offers to complete it.
    this.#covering = state;
    const remedy = this.#remedyOf(state);
    if (remedy) this.#callToAction ??= new notices!.CallToAction(this);
    const claim = this.#callToAction;
    const pending = state === 'pending';
    this.#speaks = (pending ? claim?.offerQuietly(remedy) : claim?.offer(remedy)) ?? true;
    this.state = this.#speaks || pending ? state : 'covered';
  }

  protected override updated(): void {
    const crossings = this.#crossings;
    this.#crossings = [];
    // Events are built before being dispatched throughout: the manifest analyzer would read
    // `dispatchEvent(new X(arg))` as an event named after `arg` (the JSDoc header names them).
    for (const crossing of crossings) {
      const event = new BillingThresholdEvent(crossing);
      this.dispatchEvent(event);
    }
  }

  /** Also waits for the states' module when a state waits for it (see willUpdate). */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.#noticesWait) {
      await this.#noticesWait;
      done = await super.getUpdateComplete();
    }
    return done;
  }

  /** Fetches the usages again (the retry button does this). */
  async refresh(): Promise<void> {
    // A failure shows (and is reported) from the store's state.
    await this.#usages.refresh().catch(() => undefined);
  }

  get #usages(): UsageStore {
    return this.#store.store;
  }

  /** The usages to show: the feature's (none when the plan lacks it), else every one. */
  #shownUsages(): readonly Usage[] {
    // The store has usages only when ready: nothing is shown before.
    if (!this.feature) return this.#usages.state.usages;
    const usage = this.usage;
    return usage ? [usage] : [];
  }

  /** A change of the store: a new failure is reported once; cleared, the usages are asked again. */
  #onStoreChange({ status, error }: UsageStoreState): void {
    if (status === 'error' && error && error !== this.#reportedError) {
      this.#reportedError = error;
      const event = new BillingErrorEvent({
        error,
        ...(this.feature ? { feature: this.feature } : {}),
      });
      this.dispatchEvent(event);
    }
    // Cleared (sign-out, another customer): a connected element asks again, so it shows the
    // new customer's usages, or says the session ended, instead of a skeleton forever.
    if (status === 'idle') {
      queueMicrotask(() => {
        if (this.isConnected) load(this.#usages);
      });
    }
  }

  /**
   * A usage against the thresholds, with the values of its texts. A Limitation's quantity is
   * what the customer chose (seats they added, the service billing those beyond the plan as
   * extra): nearing the included quantity, filling it or buying beyond it is never an alarm,
   * so a Limitation keeps the normal level all the way and its texts say where it stands
   * ("within", "full", "2 extra"). Warning and critical are for a Consumption nearing or
   * passing a real limit. A level that rose at 80% and fell back at 100% would tell the
   * customer that using more is better; a Limitation's level therefore never moves.
   */
  #read(usage: Usage): Reading {
    const used = usage.QuantityCurrent ?? 0;
    const total = Math.max(0, usage.QuantityIncluded ?? 0);
    const unlimited = isUnlimited(usage);
    const ratio = usageRatio(usage, used, total);
    const chosen = usage.TypeFeature === 'Limitation' && !unlimited;
    const level = chosen ? 'normal' : levelOf(ratio, this.warningThreshold, this.criticalThreshold);
    const extra = chosen && used > total ? used - total : 0;
    // The `label` attribute names the one feature shown, never the features of a list.
    const title = this.feature ? this.label : undefined;
    return {
      usage,
      used,
      total,
      ratio,
      level,
      extra,
      key: chosen ? chosenTextKey(ratio, extra) : levelTextKey(level, ratio),
      vars: {
        label: title || usage.TitleLocalized || usage.ReferenceFeature,
        used: formatNumber(this, used),
        total: formatNumber(this, total),
        extra: formatNumber(this, extra),
        percent: formatPercent(this, ratio),
      },
    };
  }

  /**
   * The placeholder, in the shape the meter will have once loaded, so that nothing moves when
   * the usages arrive: one switch line for a feature the page says is on/off (`on-off`), else a
   * label, figures, a track and the reserved detail row of a single meter.
   */
  #renderSkeleton(): TemplateResult {
    // Each bone is an empty line of the loaded meter's own element and class (a no-break
    // space), so its height is the loaded line's in every engine's font metrics.
    const label = html`<span class="label skeleton bone label-bone">&nbsp;</span>`;
    const meterBones = (detail: boolean) =>
      html`<div class="meter" part="skeleton" aria-hidden="true">
        <div class="header">${label}</div>
        <p class="figures">
          <span class="figure skeleton bone figure-bone">&nbsp;</span><span class="of">&nbsp;</span>
        </p>
        <div class="track"></div>
        ${detail ? html`<p class="detail"><span class="skeleton bone detail-bone">&nbsp;</span></p>` : nothing}
      </div>`;
    let bones: TemplateResult;
    if (!this.feature) {
      const item = meterBones(false);
      bones = html`<div class="list">${item}${item}${item}</div>`;
    } else if (this.onOff) {
      bones = html`<div class="switch" part="skeleton" aria-hidden="true">
        ${label}<span class="state skeleton bone state-bone">&nbsp;</span>
      </div>`;
    } else bones = meterBones(true);
    return html`<div aria-busy="true">
      <span class="visually-hidden">${message(this, 'meter.loading')}</span>
      ${bones}
    </div>`;
  }

  #renderSwitch(usage: Usage, label: TemplateResult): TemplateResult {
    const included = usage.IsIncluded !== false;
    // A suspended subscription's features stop (as <feature-gate> and isEntitled say).
    const suspended = this.#usages.state.subscription === 'suspended';
    const on = included && usage.IsEnabled !== false && !suspended;
    let state: 'included' | 'not-included' | 'disabled' | 'paused' = 'included';
    if (!included) state = 'not-included';
    else if (usage.IsEnabled === false) state = 'disabled';
    else if (suspended) state = 'paused';
    return html`<div class="switch" part="switch">
      ${label}
      <span class="state" part="state" ?data-on=${on}>${message(this, `meter.${state}`)}</span>
    </div>`;
  }

  #renderUsage(
    { usage, used, total, level, extra, key, vars }: Reading,
    index: number,
  ): TemplateResult {
    const id = `feature-${index}`;
    const label = html`<span class="label" part="label" id=${id}
      >${this.feature ? html`<slot name="label">${vars.label}</slot>` : vars.label}</span
    >`;
    if (usage.TypeFeature === 'OnOff') return this.#renderSwitch(usage, label);
    const unlimited = isUnlimited(usage);
    const value = html`<span class="figure" part="value">${vars.used}</span>`;
    // Only a level past a threshold has a text beside the title; a Limitation's "full" and
    // "extra" say so in the figures.
    const levelKey = level === 'normal' ? 'normal' : key;
    const reset = usage.DateResetConsumption ?? usage.DatePeriodEnd;
    const date = usage.TypeFeature === 'Consumption' && reset ? formatDate(this, reset) : '';
    // The fill's width is a `.style` property binding: set through the CSSOM, which a strict
    // CSP allows (a style attribute it would block), with no styleMap directive to ship.
    return html`<div
      class="meter"
      part="meter"
      data-level=${extra ? 'extra' : level}
      ?data-unlimited=${unlimited}
    >
      <div class="header" part="header">
        ${label}
        ${
          levelKey !== 'normal'
            ? html`<span class="level" part="level"
                >${message(this, `meter.level.${levelKey}` as MessageKey, vars)}</span
              >`
            : nothing
        }
      </div>
      <p
        class="figures"
        part="figures"
        aria-label=${unlimited ? message(this, 'meter.unlimited-value-text', vars) : nothing}
      >
        ${
          unlimited
            ? html`${renderFigures(this, 'meter.unlimited-used', { used: value })}
                <span class="unlimited" part="unlimited">${message(this, 'meter.unlimited')}</span>`
            : extra
              ? renderFigures(this, 'meter.split', {
                  used: value,
                  total: html`<span class="of" part="total">${vars.total}</span>`,
                  extra: html`<span class="of" part="extra">${vars.extra}</span>`,
                })
              : renderFigures(this, 'meter.of', {
                  used: value,
                  total: html`<span class="figure" part="total">${vars.total}</span>`,
                })
        }
      </p>
      ${
        unlimited
          ? nothing
          : html`<div
              class="track"
              part="track"
              role="meter"
              aria-labelledby=${id}
              aria-valuemin="0"
              aria-valuemax=${total}
              aria-valuenow=${Math.min(used, total)}
              aria-valuetext=${message(this, extra ? 'meter.extra-value-text' : 'meter.value-text', vars)}
            >
              <div
                class="fill"
                part="fill"
                .style=${`inline-size:${(fillOf(used, total, extra) * 100).toFixed(2)}%`}
              ></div>
              ${
                extra
                  ? html`<div
                      class="fill extra"
                      part="fill extra"
                      .style=${`inline-size:${((extra / used) * 100).toFixed(2)}%`}
                    ></div>`
                  : nothing
              }
            </div>`
      }
      ${
        date
          ? html`<p class="detail" part="detail">${message(this, 'meter.resets', { date })}</p>`
          : this.feature
            ? // A single meter keeps its detail row, empty: the height of the skeleton and of
              // a consumption meter beside it, so loading or a reset moves nothing.
              html`<p class="detail" part="detail" aria-hidden="true"></p>`
            : nothing
      }
      ${level === 'critical' ? this.#renderOverrun(usage) : nothing}
    </div>`;
  }

  /** What a use at or past its limit costs and the way out (overrun.ts, imported on first need). */
  #renderOverrun(usage: Usage): TemplateResult | typeof nothing {
    if (overrun) return overrun.renderOverrun(this, usage);
    // A failed import leaves the figures alone (the browser reports it); the next update tries
    // again.
    void import('./overrun.js').then((module) => {
      overrun = module;
      this.requestUpdate();
    });
    return nothing;
  }

  /**
   * The remedy of a state that has one: shared by the elements of a region, it is offered by
   * one of them (call-to-action.ts). A mistyped feature (`unavailable` with usages) is this
   * meter's own: no remedy.
   */
  #remedyOf(state: MeterState): Remedy | undefined {
    if (state === 'no-subscription' || state === 'not-in-plan') return 'plans';
    if (state === 'pending') return 'subscribe';
    if (this.#usages.state.status !== 'error') return undefined;
    if (state === 'signed-out') return 'sign-in';
    // As failureRemedy (call-to-action.ts) says, without loading it before a meter needs it.
    return this.#usages.state.error?.code === 'session-changed' ? 'reload' : 'retry';
  }

  /** What to show, from the store's state (see `state`). */
  #stateOf(): MeterState {
    const { status, error, subscription, pendingFeatures } = this.#usages.state;
    if (status === 'error') {
      if (error?.code === 'unauthenticated') return 'signed-out';
      return error?.code === 'forbidden-origin' ? 'unavailable' : 'error';
    }
    if (status !== 'ready') return 'loading';
    if (subscription === 'none') return 'no-subscription';
    if (subscription === 'pending' && !this.feature) return 'pending';
    if (!this.feature || this.#readings.length) return 'ready';
    if (subscription === 'pending' && this.#pendingFeature(pendingFeatures)) return 'pending';
    return this.#lackedFeatureState();
  }

  /** The pending plan's terms of this meter's feature, if the plan has it. */
  #pendingFeature(features: readonly OfferFeature[]): OfferFeature | undefined {
    return features.find((feature) => feature.ReferenceFeature === this.feature);
  }

  /**
   * A feature the customer's usages lack: not in the plan, or not a feature at all (a typo of
   * the integrator's, told in the console; the customer reads a neutral text, not an upsell).
   * Loading while the service's catalogue is asked for. Which of the two it is, notices.ts
   * tells (it draws both): until it is loaded, 'not-in-plan', which willUpdate holds as
   * loading while it loads.
   */
  #lackedFeatureState(): MeterState {
    if (this.#offers === undefined) {
      if (!this.#askedCatalogue) {
        this.#askedCatalogue = true;
        void this.#usages.offers().then((offers) => {
          this.#offers = offers;
          this.requestUpdate();
        });
      }
      return 'loading';
    }
    if (!notices) return 'not-in-plan';
    return notices.lackedFeatureState(this.feature, this.#offers, this.#usages.state);
  }

  /**
   * What a covered meter shows: its label, the element offering the remedy saying why. A plan
   * that lacks this feature says so in two words ("Not included": this meter's own fact). Without
   * a subscription the region's "Choose a plan to get started" says it for every meter: a quiet
   * dash, the words kept for screen readers, which reach each meter on its own. A failure keeps
   * the dash, another element offering the retry.
   */
  #renderCovered(): TemplateResult | typeof nothing {
    if (!this.feature) return nothing;
    const covering = this.#covering;
    return html`<div class="switch covered" part="covered">
      <span class="label" part="label"
        ><slot name="label">${this.label || this.feature}</slot></span
      >
      ${
        covering === 'not-in-plan'
          ? html`<span class="state" part="state">${message(this, 'meter.not-included')}</span>`
          : html`<span class="of" aria-hidden="true">—</span>${
                covering === 'no-subscription'
                  ? html`<span class="visually-hidden">${message(this, 'meter.no-plan')}</span>`
                  : nothing
              }`
      }
    </div>`;
  }

  #renderBody(): TemplateResult | typeof nothing {
    const readings = this.#readings;
    const { state } = this;
    switch (state) {
      case 'covered':
        return this.#renderCovered();
      case 'loading':
        return this.#renderSkeleton();
      case 'ready':
        break;
      default:
        return notices!.renderNoticeState(this, state, {
          ...this.#usages.state,
          offers: this.#offers ?? null,
          renderFigures,
          speaks: this.#speaks,
        });
    }
    if (this.feature) return this.#renderUsage(readings[0]!, 0);
    if (!readings.length) {
      return html`<div class="message" part="message" data-kind="empty">
        <p><slot name="empty">${message(this, 'meter.empty')}</slot></p>
      </div>`;
    }
    return html`<ul class="list" part="list" aria-label=${message(this, 'meter.list')}>
      ${readings.map((reading, index) => html`<li part="item">${this.#renderUsage(reading, index)}</li>`)}
    </ul>`;
  }

  override render(): TemplateResult {
    return html`${this.#renderBody()}
      <div class="visually-hidden" role="status">${this.announcement}</div>`;
  }
}

/** What a meter shows (see the `state` property). */
export type MeterState =
  | 'loading'
  | 'ready'
  | 'pending'
  | 'no-subscription'
  | 'not-in-plan'
  | 'signed-out'
  | 'unavailable'
  | 'error'
  | 'covered';

/** A usage read against the thresholds (see `#read`). */
interface Reading {
  usage: Usage;
  used: number;
  total: number;
  ratio: number;
  level: ThresholdLevel;
  extra: number;
  /** The level's texts: `meter.announce.<key>`, and `meter.level.<key>` unless normal. */
  key: string;
  vars: MessageVars;
}

/**
 * Used over included; past any threshold when some is used of none. No ratio (0) for an on/off
 * feature, unlimited access or no included quantity given.
 */
function usageRatio(usage: Usage, used: number, total: number): number {
  if (usage.TypeFeature === 'OnOff' || usage.QuantityIncluded === undefined) return 0;
  if (isUnlimited(usage)) return 0;
  if (total > 0) return used / total;
  return used > 0 ? Number.POSITIVE_INFINITY : 0;
}

/**
 * The texts of a Limitation, whose level stays normal: within what the plan includes, all of it
 * in use, or bought beyond it.
 */
function chosenTextKey(ratio: number, extra: number): string {
  if (extra) return 'extra';
  return ratio >= 1 ? 'full' : 'within';
}

/** The texts of a level: past the critical threshold, over (overrun) or at the limit. */
function levelTextKey(level: ThresholdLevel, ratio: number): string {
  if (level !== 'critical') return level;
  return ratio > 1 ? 'over' : 'critical';
}

/**
 * How much of the track the included part fills, from 0 to 1: full when some is used of none.
 * With extra bought, the track is the whole quantity: the included part, then the extra one.
 */
function fillOf(used: number, total: number, extra: number): number {
  if (extra) return total / used;
  if (total > 0) return Math.min(1, used / total);
  return used > 0 ? 1 : 0;
}

/**
 * A figures text ('{used} of {total}') with its styled figures in place: the words between
 * them are `of` parts, so a translation may put the figures anywhere in its sentence.
 */
function renderFigures(
  element: Element,
  key: MessageKey,
  parts: Record<string, TemplateResult>,
): TemplateResult[] {
  return fillTemplate(message(element, key), parts).map((piece) =>
    typeof piece === 'string' ? html`<span class="of" part="of">${piece}</span>` : piece,
  );
}
