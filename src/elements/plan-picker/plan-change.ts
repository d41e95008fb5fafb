import type { ReactiveController } from 'lit';
import type { PlanChangeResponse, PlanQuoteResponse } from '../../contract/proxy-api.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingPlanChangeEvent } from '../../client/events.js';
import type { Language } from '../../client/i18n.js';
import { changePlan, getPlanQuote } from '../../client/plan-client.js';
import {
  ConfirmedChange,
  outcomeUnknown,
  type ChangeDialog,
  type ChangeFailure,
  type ChangeHost,
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

/** A refused or failed quote or change. */
export interface PlanProblem extends ChangeFailure<PendingPlanChange> {
  /** The offer concerned. */
  offer: string;
}

/** The element the flow runs in. */
export interface PlanHost extends ChangeHost {
  readonly endpoint: string | undefined;
}

/** What the flow needs of the element's view. */
export interface PlanView extends ChangeDialog {
  /** The plan changed: read the offers and the subscription again. */
  planChanged(): void;
  /** The element's language: the service writes the quote's lines in it. */
  language(): Language;
}

/**
 * The plan change flow of `<plan-picker>`, apart from its DOM: choosing an offer quotes the move,
 * the dialog always asks for confirmation (a plan change always changes the recurring price),
 * Confirm records an idempotency key and sends the change once, and a changed price is shown
 * and asked again. Every failure is reported as `billing-error`.
 */
export class PlanChangeFlow
  extends ConfirmedChange<PlanQuote, PlanChangeResponse, PlanProblem, PlanHost, PlanView>
  implements ReactiveController
{
  #offer: string | undefined;
  #resumeCheckedFor = '';

  constructor(host: PlanHost, view: PlanView) {
    super(host, view);
    host.addController(this);
  }

  /** The offer being quoted, confirmed or changed to. */
  get offer(): string | undefined {
    return this.#offer;
  }

  /** A refused quote, or the change's own failure. */
  get problem(): PlanProblem | undefined {
    return this.failure;
  }

  hostConnected(): void {
    this.#resumePending();
  }

  /** An offer was chosen: price the move, then ask. Nothing else may start meanwhile. */
  async choose(offer: string): Promise<void> {
    if (this.phase !== 'idle' || this.failure?.pending) return;
    this.setFailure(undefined);
    this.setSuccess(undefined);
    this.#offer = offer;
    this.setPhase('preparing');
    let quote: PlanQuoteResponse;
    try {
      quote = await getPlanQuote({ offer }, this.endpoint, undefined, this.view.language());
    } catch (caught) {
      this.#fail({ error: toBillingError(caught), offer });
      this.setPhase('idle');
      return;
    }
    await this.#confirmQuote({ quote, changed: false });
  }

  /** The dialog's Confirm: sends the change quoted. Only the first click of several counts. */
  async confirm(): Promise<void> {
    const shown = this.quote;
    if (this.phase !== 'confirming' || !shown) return;
    const { quote } = shown;
    const pending = createPendingPlanChange(
      this.endpoint,
      {
        offer: quote.ReferenceOffer,
        confirmedAmountTotal: quote.AmountTotalDue,
        confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
      },
      quote.ReferenceCustomer,
    );
    await this.#send(pending);
  }

  /** "Try again": re-sends a change of unknown outcome with its key, or quotes again. */
  async retry(): Promise<void> {
    const problem = this.failure;
    if (!problem) return;
    if (problem.pending && problem.verify) {
      this.setFailure(undefined);
      await this.#resume(this.endpoint, problem.pending);
      return;
    }
    if (problem.pending) {
      await this.#send(problem.pending);
      return;
    }
    this.setFailure(undefined);
    await this.choose(problem.offer);
  }

  /** Whether "Try again" can help the problem shown. */
  get canRetry(): boolean {
    const problem = this.failure;
    if (!problem) return false;
    return problem.pending !== undefined || problem.error.retryable;
  }

  /** Asks to confirm `quote`, the offer it moves to being the one chosen. */
  async #confirmQuote(quote: PlanQuote): Promise<void> {
    this.#offer = quote.quote.ReferenceOffer;
    await this.ask(quote);
  }

  async #send(pending: PendingPlanChange): Promise<void> {
    const endpoint = this.endpoint;
    this.setFailure(undefined);
    this.#offer = pending.offer;
    this.setPhase(this.phase === 'resuming' ? 'resuming' : 'applying');
    let result: PlanChangeResponse;
    try {
      // A changed price comes back as a new quote: in the element's language too.
      const request = planChangeRequestOf(pending);
      result = await changePlan(request, endpoint, undefined, this.view.language());
    } catch (caught) {
      this.#changeFailed(endpoint, pending, toBillingError(caught));
      return;
    }
    settlePendingPlanChange(endpoint, pending);
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
  }

  #changeFailed(endpoint: string, pending: PendingPlanChange, error: BillingError): void {
    const unknown = outcomeUnknown(error);
    if (!unknown) settlePendingPlanChange(endpoint, pending);
    if (error.code === 'price-changed' && error.quote) {
      // Nothing changed. Show the service's new price and ask again, with a new key.
      this.report(error);
      void this.#confirmQuote({ quote: error.quote, changed: true });
      return;
    }
    if (error.code === 'already-on-offer') this.view.planChanged();
    this.#fail({ error, offer: pending.offer, pending: unknown ? pending : undefined });
    this.finish();
  }

  #fail(problem: PlanProblem): void {
    this.setFailure(problem);
    this.report(problem.error);
  }

  /** A change confirmed before a reload whose outcome is unknown: learn it, same key. */
  #resumePending(): void {
    const endpoint = this.endpoint;
    if (this.phase !== 'idle' || this.#resumeCheckedFor === endpoint) return;
    this.#resumeCheckedFor = endpoint;
    const pending = readPendingPlanChange(endpoint);
    if (pending) void this.#resume(endpoint, pending);
  }

  async #resume(endpoint: string, pending: PendingPlanChange): Promise<void> {
    this.#offer = pending.offer;
    await this.resumeIfSameCustomer(pending, {
      settle: (stale) => settlePendingPlanChange(endpoint, stale),
      cannotTell: (kept, error) => {
        this.#fail({ error, offer: kept.offer, pending: kept, verify: true });
      },
      send: (same) => this.#send(same),
    });
  }
}
