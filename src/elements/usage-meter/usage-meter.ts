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
  errorMessage,
  message,
  registerTexts,
  type MessageKey,
} from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';
import { isUnlimited, type UsageStoreState } from '../../client/usage-store.js';
import { defineElement } from '../shared/define.js';
import { openRemedy } from '../shared/remedy.js';
import { fillTemplate } from '../shared/template.js';
import { UsageController } from '../shared/usage-controller.js';
import { meterTexts } from './messages.js';
import { usageMeterStyles } from './styles.js';
import { levelOf, readThresholds, usageRatio, worstLevel, type Thresholds } from './thresholds.js';

/**
 * What the signed-in customer's plan includes of a feature, and how much of it is used.
 * A quantity (`Limitation`) is a meter with "3 of 5"-style figures; a consumption shows what
 * was used of what is included and when it resets; an on/off feature shows whether it is
 * included. Without `feature`, every feature of the plan is listed. All meters of a page
 * share one request to the proxy.
 *
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
 * @event billing-remedy - The user asked for a portal workflow (change plan, restart...). Cancelable: call `preventDefault()` to open it yourself. `detail`: `{ page, code?, feature? }`.
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
 * @csspart detail - The line under the meter (reset date).
 * @csspart switch - An on/off feature's line.
 * @csspart state - An on/off feature's "Included" / "Not included" badge.
 * @csspart list - The list of every feature (without `feature`).
 * @csspart item - One feature of the list.
 * @csspart message - The not-in-plan, empty and error states.
 * @csspart remedy-button - The button that opens a portal workflow (change plan, restart...).
 * @csspart retry-button - The retry button of the error state.
 * @csspart skeleton - The placeholder shown while loading.
 *
 * @cssproperty --billing-accent - Meter fill, buttons and focus ring. Default #4f46e5 (#8b87f7 dark).
 * @cssproperty --billing-on-accent - Text on the accent. Default #fff.
 * @cssproperty --billing-warning - Fill and level text past the warning threshold. Default #b54708.
 * @cssproperty --billing-critical - Fill and level text past the critical threshold. Default #b42318.
 * @cssproperty --billing-success - Dot of an included on/off feature. Default #067647.
 * @cssproperty --billing-radius - Corner radius of buttons. Default 8px.
 * @cssproperty --billing-space - Spacing unit (a 4px grid). Default 4px.
 * @cssproperty --billing-font-size - Base font size. Default 1em (inherited).
 * @cssproperty --billing-figure-size - Size of the figures. Default 1.75em.
 * @cssproperty --billing-track-height - Height of the meter track. Default 8px.
 * @cssproperty --billing-track-color - Colour of the empty track. Default currentColor at 12%.
 * @cssproperty --billing-border-color - Hairlines between features. Default currentColor at 16%.
 * @cssproperty --billing-muted-color - Secondary text. Default currentColor at 68%.
 * @cssproperty --billing-focus-ring - Focus ring (a box-shadow). Default a 2px accent ring.
 * @cssproperty --billing-duration - Length of the fill animation. Default 180ms (none under reduced motion).
 */
export class UsageMeter extends LitElement {
  static override styles = usageMeterStyles;

  static {
    registerTexts(meterTexts);
  }

  /** Registers the element as `tag`; does nothing when this class already holds the tag. */
  static define(tag = 'usage-meter', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  static override properties = {
    feature: { type: String, reflect: true },
    endpoint: { type: String },
    label: { type: String },
    warningThreshold: { type: Number, attribute: 'warning-threshold' },
    criticalThreshold: { type: Number, attribute: 'critical-threshold' },
    level: { type: String, reflect: true },
    announcement: { state: true },
  };

  #usages = new UsageController(
    this,
    () => this.endpoint,
    (state) => this.#onStoreChange(state),
  );
  /** Last level seen per feature: a change of level is a crossing, announced once. */
  #levels = new Map<string, ThresholdLevel>();
  #crossings: ThresholdDetail[] = [];
  #reportedError: BillingError | null = null;

  /** Reference of the feature to show (`ReferenceFeature`); without it, every feature is listed. */
  declare feature: string;
  /** Location of the billing proxy; defaults to the page's (`configureBilling`), else `/billing`. */
  declare endpoint: string | undefined;
  /** Title to show instead of the service's (used too when the plan lacks the feature). */
  declare label: string | undefined;
  /** Share of the included quantity from which the meter warns (0.8 = 80 %). */
  declare warningThreshold: number;
  /** Share of the included quantity from which the meter is critical (1 = all used). */
  declare criticalThreshold: number;
  /** Read-only: `normal`, `warning` or `critical` (the worst one in list mode), reflected for styling. */
  declare level: ThresholdLevel;
  /** The last crossing, read out by the polite live region. */
  declare protected announcement: string;

  constructor() {
    super();
    this.feature = '';
    this.warningThreshold = 0.8;
    this.criticalThreshold = 1;
    this.level = 'normal';
    this.announcement = '';
  }

  /** The usage shown (with `feature`), once loaded. */
  get usage(): Usage | undefined {
    return this.feature ? this.#usages.get(this.feature) : undefined;
  }

  /** Fetches the usages again (the retry button does this). */
  refresh(): Promise<void> {
    return this.#usages.store.refresh().then(
      () => undefined,
      () => undefined,
    );
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') && this.hasUpdated) this.#usages.reconnect();
    // New thresholds move the baseline; only a change of usage counts as a crossing.
    if (changed.has('warningThreshold') || changed.has('criticalThreshold')) this.#levels.clear();
    this.#trackLevels();
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

  #onStoreChange(state: UsageStoreState): void {
    if (state.status === 'error' && state.error && state.error !== this.#reportedError) {
      this.#reportedError = state.error;
      const event = new BillingErrorEvent({
        error: state.error,
        ...(this.feature ? { feature: this.feature } : {}),
      });
      this.dispatchEvent(event);
    }
  }

  get #thresholds(): Thresholds {
    return readThresholds(this.warningThreshold, this.criticalThreshold);
  }

  #shownUsages(): Usage[] {
    const state = this.#usages.state;
    if (state.status !== 'ready') return [];
    if (!this.feature) return [...state.usages];
    const usage = this.usage;
    return usage ? [usage] : [];
  }

  #trackLevels(): void {
    const thresholds = this.#thresholds;
    const levels: ThresholdLevel[] = [];
    const announcements: string[] = [];
    for (const usage of this.#shownUsages()) {
      const ratio = usageRatio(usage);
      const level = levelOf(ratio, thresholds);
      levels.push(level);
      const previous = this.#levels.get(usage.ReferenceFeature);
      this.#levels.set(usage.ReferenceFeature, level);
      if (previous === undefined || previous === level) continue;
      this.#crossings.push({
        feature: usage.ReferenceFeature,
        level,
        previousLevel: previous,
        ratio: ratio ?? 0,
      });
      announcements.push(this.#announce(usage, level, ratio ?? 0));
    }
    this.level = worstLevel(levels);
    if (announcements.length > 0) this.announcement = announcements.join(' ');
  }

  #announce(usage: Usage, level: ThresholdLevel, ratio: number): string {
    const vars = { label: this.#title(usage), percent: formatPercent(this, ratio) };
    if (level === 'normal') return message(this, 'meter.announce.normal', vars);
    if (level === 'warning') return message(this, 'meter.announce.warning', vars);
    if (ratio > 1 && usage.TypeFeature === 'Limitation') {
      const extra = (usage.QuantityCurrent ?? 0) - Math.max(0, usage.QuantityIncluded ?? 0);
      return message(this, 'meter.announce.extra', { ...vars, extra: formatNumber(this, extra) });
    }
    return message(this, ratio > 1 ? 'meter.announce.over' : 'meter.announce.critical', vars);
  }

  #title(usage: Usage): string {
    if (this.feature && this.label) return this.label;
    return usage.TitleLocalized || usage.ReferenceFeature;
  }

  #onRetry = (): void => {
    this.#usages.retry();
  };

  #renderSkeleton(): TemplateResult {
    const bones = html`<div class="meter" part="skeleton" aria-hidden="true">
      <span class="skeleton label-bone"></span>
      <span class="skeleton figure-bone"></span>
      <div class="track"></div>
    </div>`;
    return html`<div aria-busy="true">
      <span class="visually-hidden">${message(this, 'meter.loading')}</span>
      ${this.feature ? bones : html`<div class="list">${bones}${bones}${bones}</div>`}
    </div>`;
  }

  #renderError(error: BillingError | null): TemplateResult {
    const text = errorMessage(this, error?.code ?? '', 'error.generic');
    // remedyFor only answers remedy pages, each with its `remedy.<page>` label.
    const page = error ? remedyFor(error.code) : undefined;
    return html`<div class="message" part="message" data-kind="error">
      <p role="alert"><slot name="error">${text}</slot></p>
      <div class="actions">
        ${
          page
            ? html`<button
                type="button"
                class="primary"
                part="remedy-button"
                @click=${() => void openRemedy(this, page, error?.code, this)}
              >
                ${message(this, `remedy.${page}` as MessageKey)}
              </button>`
            : nothing
        }
        <button
          type="button"
          class=${page ? 'secondary' : 'primary'}
          part="retry-button"
          @click=${this.#onRetry}
        >
          <slot name="retry">${message(this, 'retry')}</slot>
        </button>
      </div>
    </div>`;
  }

  #renderNotInPlan(): TemplateResult {
    const label = this.label || this.feature;
    return html`<div class="message" part="message" data-kind="not-in-plan">
      <p><slot name="not-in-plan">${message(this, 'meter.notInPlan', { label })}</slot></p>
      <button
        type="button"
        class="secondary"
        part="remedy-button"
        @click=${() => void openRemedy(this, 'change-plan', 'Error.Api.Usage.NoneMatching', this)}
      >
        <slot name="change-plan">${message(this, 'remedy.change-plan')}</slot>
      </button>
    </div>`;
  }

  #renderLabel(usage: Usage, id: string): TemplateResult {
    const title = this.#title(usage);
    return html`<span class="label" part="label" id=${id}
      >${this.feature ? html`<slot name="label">${title}</slot>` : title}</span
    >`;
  }

  #renderOnOff(usage: Usage, id: string): TemplateResult {
    const included = usage.IsIncluded !== false;
    const on = included && usage.IsEnabled !== false;
    const state = !included ? 'meter.notIncluded' : on ? 'meter.included' : 'meter.disabled';
    return html`<div class="switch" part="switch">
      ${this.#renderLabel(usage, id)}
      <span class="state" part="state" ?data-on=${on}>${message(this, state)}</span>
    </div>`;
  }

  #renderFigures(parts: Record<string, TemplateResult>, key: MessageKey): TemplateResult {
    const pieces = fillTemplate(message(this, key), parts);
    return html`${pieces.map((piece) =>
      typeof piece === 'string' ? html`<span class="of" part="of">${piece}</span>` : piece,
    )}`;
  }

  #renderUnlimited(usage: Usage, id: string): TemplateResult {
    const used = usage.QuantityCurrent ?? 0;
    const title = this.#title(usage);
    const value = html`<span class="figure" part="value">${formatNumber(this, used)}</span>`;
    return html`<div class="meter" part="meter" data-level="normal" data-unlimited>
      <div class="header" part="header">${this.#renderLabel(usage, id)}</div>
      <p
        class="figures"
        part="figures"
        aria-label=${message(this, 'meter.unlimitedValueText', { used: formatNumber(this, used), label: title })}
      >
        ${this.#renderFigures({ used: value }, 'meter.unlimitedUsed')}
        <span class="unlimited" part="unlimited">${message(this, 'meter.unlimited')}</span>
      </p>
      ${this.#renderDetail(usage)}
    </div>`;
  }

  #renderDetail(usage: Usage): TemplateResult | typeof nothing {
    if (usage.TypeFeature !== 'Consumption') return nothing;
    const reset = usage.DateResetConsumption ?? usage.DatePeriodEnd;
    const date = reset ? formatDate(this, reset) : '';
    return date
      ? html`<p class="detail" part="detail">${message(this, 'meter.resets', { date })}</p>`
      : nothing;
  }

  #renderQuantity(usage: Usage, id: string): TemplateResult {
    if (isUnlimited(usage)) return this.#renderUnlimited(usage, id);
    const used = usage.QuantityCurrent ?? 0;
    const total = Math.max(0, usage.QuantityIncluded ?? 0);
    const ratio = usageRatio(usage) ?? 0;
    const level = levelOf(ratio, this.#thresholds);
    const title = this.#title(usage);
    const fill = total > 0 ? Math.min(1, used / total) : used > 0 ? 1 : 0;
    // A Limitation quantity beyond the included one was bought (the service bills it as
    // extra): that is the customer's own choice, not an overrun, so it reads "2 extra" in the
    // neutral look. A Consumption beyond the included amount is an overrun.
    const extra = usage.TypeFeature === 'Limitation' && used > total ? used - total : 0;
    const vars = {
      used: formatNumber(this, used),
      total: formatNumber(this, total),
      extra: formatNumber(this, extra),
      label: title,
    };
    const valueText = message(this, extra ? 'meter.extraValueText' : 'meter.valueText', vars);
    const levelText = extra
      ? message(this, 'meter.level.extra', vars)
      : level === 'warning'
        ? message(this, 'meter.level.warning', { percent: formatPercent(this, ratio) })
        : level === 'critical'
          ? message(this, ratio > 1 ? 'meter.level.over' : 'meter.level.critical')
          : '';
    // The fill's width is a `.style` property binding: set through the CSSOM, which a strict
    // CSP allows (a style attribute it would block), with no styleMap directive to ship.
    return html`<div class="meter" part="meter" data-level=${extra ? 'extra' : level}>
      <div class="header" part="header">
        ${this.#renderLabel(usage, id)}
        ${levelText ? html`<span class="level" part="level">${levelText}</span>` : nothing}
      </div>
      <p class="figures" part="figures">
        ${this.#renderFigures(
          {
            used: html`<span class="figure" part="value">${formatNumber(this, used)}</span>`,
            total: html`<span class="figure" part="total">${formatNumber(this, total)}</span>`,
          },
          'meter.of',
        )}
      </p>
      <div
        class="track"
        part="track"
        role="meter"
        aria-labelledby=${id}
        aria-valuemin="0"
        aria-valuemax=${total}
        aria-valuenow=${Math.min(used, total)}
        aria-valuetext=${valueText}
      >
        <div class="fill" part="fill" .style=${`inline-size:${(fill * 100).toFixed(2)}%`}></div>
      </div>
      ${this.#renderDetail(usage)}
    </div>`;
  }

  #renderUsage(usage: Usage, index: number): TemplateResult {
    const id = `feature-${index}`;
    return usage.TypeFeature === 'OnOff'
      ? this.#renderOnOff(usage, id)
      : this.#renderQuantity(usage, id);
  }

  #renderList(usages: readonly Usage[]): TemplateResult {
    if (usages.length === 0) {
      return html`<div class="message" part="message" data-kind="empty">
        <p><slot name="empty">${message(this, 'meter.empty')}</slot></p>
      </div>`;
    }
    return html`<ul class="list" part="list" aria-label=${message(this, 'meter.list')}>
      ${usages.map((usage, index) => html`<li part="item">${this.#renderUsage(usage, index)}</li>`)}
    </ul>`;
  }

  #renderBody(): TemplateResult {
    const state = this.#usages.state;
    if (state.status === 'error') return this.#renderError(state.error);
    if (state.status !== 'ready') return this.#renderSkeleton();
    if (!this.feature) return this.#renderList(state.usages);
    const usage = this.usage;
    return usage ? this.#renderUsage(usage, 0) : this.#renderNotInPlan();
  }

  override render(): TemplateResult {
    return html`${this.#renderBody()}
      <div class="visually-hidden" role="status">${this.announcement}</div>`;
  }
}
