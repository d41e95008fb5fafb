import type { ReactiveController } from 'lit';
import type { PlanChangeResponse, PlanQuoteResponse } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { BillingPlanChangeEvent } from '../../client/events.js';
import { changePlan, getPlanQuote } from '../../client/plan-client.js';
import {
  ConfirmedChange,
  type Application,
  type ChangeHost,
  type ChangeView,
} from '../shared/change-flow.js';
import {
  createPendingPlanChange,
  planChangeRequestOf,
  readPendingPlanChange,
  settlePendingPlanChange,
  type PendingPlanChange,
} from './pending-plan-change.js';

/** The quote the dialog asks the user to confirm; `changed` when it replaces a stale one. */
export interface PlanQuote {
  quote: PlanQuoteResponse;
  changed: boolean;
}

/** The element the flow runs in. */
export interface PlanHost extends ChangeHost {
  readonly endpoint: string | undefined;
}

/** What the flow needs of the element's view. */
export interface PlanView extends ChangeView {
  /** The plan changed: read the offers and the subscription again. */
  planChanged(): void;
}

/**
 * The plan change flow of `<plan-picker>`, apart from its DOM: choosing an offer quotes the move,
 * the dialog always asks for confirmation (a plan change always changes the recurring price),
 * Confirm records an idempotency key and sends the change once, and a changed price is shown
 * and asked again. Every failure is reported as `billing-error`.
 */
export class PlanChangeFlow
  extends ConfirmedChange<PlanQuote, PlanChangeResponse, PendingPlanChange, PlanHost, PlanView>
  implements ReactiveController
{
  protected override readonly settle = settlePendingPlanChange;

  #offer: string | undefined;

  constructor(host: PlanHost, view: PlanView) {
    super(host, view);
    host.addController(this);
  }

  /** The offer being quoted, confirmed or changed to, or whose quote or change failed. */
  get offer(): string | undefined {
    return this.#offer;
  }

  /** A change confirmed before a reload whose outcome is unknown: learn it, same key. */
  hostConnected(): void {
    this.resumeRecorded('', (endpoint) => readPendingPlanChange(endpoint));
  }

  /** An offer was chosen: price the move, then ask. Nothing else may start meanwhile. */
  async choose(offer: string): Promise<void> {
    if (this.phase !== 'idle' || this.failure?.pending) return;
    this.#offer = offer;
    const quote = await this.prepare(() =>
      getPlanQuote({ offer }, this.endpoint, undefined, this.view.language()),
    );
    if (quote) await this.#confirmQuote({ quote, changed: false });
  }

  /**
   * "Try again": re-sends a change of unknown outcome with its key (checking first who is
   * signed in, when that could not be told), or quotes the offer again.
   */
  async retry(): Promise<void> {
    const failure = this.failure;
    const offer = this.#offer;
    if (!failure) return;
    if (failure.pending && failure.verify) {
      this.setFailure(undefined);
      await this.resume(failure.pending);
      return;
    }
    if (failure.pending) {
      await this.send(failure.pending);
      return;
    }
    this.setFailure(undefined);
    if (offer !== undefined) await this.choose(offer);
  }

  /** Whether "Try again" can help the failure shown. */
  get canRetry(): boolean {
    const failure = this.failure;
    if (!failure) return false;
    return failure.pending !== undefined || failure.error.retryable;
  }

  /** Asks to confirm `quote`, the offer it moves to being the one chosen. */
  async #confirmQuote(quote: PlanQuote): Promise<void> {
    this.#offer = quote.quote.ReferenceOffer;
    await this.ask(quote);
  }

  /** A plan change has no `billing-before-…` event: Confirm records it at once. */
  protected override applying({ quote }: PlanQuote): Application<PendingPlanChange> {
    return {
      record: () =>
        createPendingPlanChange(
          this.endpoint,
          {
            offer: quote.ReferenceOffer,
            confirmedAmountTotal: quote.AmountTotalDue,
            confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
          },
          quote.ReferenceCustomer,
        ),
    };
  }

  protected override async send(pending: PendingPlanChange): Promise<void> {
    this.#offer = pending.offer;
    await this.sendRecorded(
      pending,
      // A changed price comes back as a new quote: in the element's language too.
      (endpoint) =>
        changePlan(planChangeRequestOf(pending), endpoint, undefined, this.view.language()),
      (result, endpoint) => {
        this.applied(result, endpoint);
        this.view.planChanged();
        const changed = new BillingPlanChangeEvent({
          offer: pending.offer,
          currentOffer: result.offer,
          offerAfterTerm: result.offerAfterTerm,
          dateEffective: result.dateEffective,
          amountTotal: result.amountTotal,
          replayed: result.replayed,
        });
        this.host.dispatchEvent(changed);
      },
    );
  }

  protected override askAgain(error: BillingError): boolean {
    if (error.code !== 'price-changed' || !error.quote) return false;
    void this.#confirmQuote({ quote: error.quote, changed: true });
    return true;
  }

  protected override followUp(code: string): void {
    if (code === 'already-on-offer') this.view.planChanged();
  }

  /** Who is signed in could not be told: reported, as every failure the picker shows. */
  protected override unverified(error: BillingError): void {
    this.report(error);
  }

  /** A change confirmed earlier is resumed: the offer it moves to is the one shown. */
  protected override async resume(pending: PendingPlanChange): Promise<void> {
    this.#offer = pending.offer;
    await super.resume(pending);
  }
}
