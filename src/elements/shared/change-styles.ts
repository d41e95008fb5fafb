import { css } from 'lit';
import { sharedStyles } from './styles.js';

// The look of the elements that confirm a change in a dialog (<buy-feature>, <plan-picker>):
// buttons, the quantity row, the confirmation dialog's price block and actions, the outcome
// messages. Shared, so both dialogs look the same and the script-tag file carries them once.

const ownStyles = css`
  /*
   * One grid for the quantity (its group has no box of its own), the price and Buy. Wide: the
   * price between the quantity and Buy; narrow (the element under 30em): Buy beside the input,
   * the price beneath. Either way a row under the input is kept for its hint, so a message
   * appearing there moves nothing, and Buy never sits alone on a row. The layout box is the
   * size container (the host stays a plain block for the page).
   */
  .layout {
    container-type: inline-size;
  }
  form {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    grid-template-areas:
      'label price buy'
      'input price buy'
      'hint hint hint';
    align-items: end;
    gap: calc(var(--_space) * 1.5) calc(var(--_space) * 6);
  }
  .quantity {
    display: contents;
  }
  label {
    grid-area: label;
  }
  input {
    grid-area: input;
  }
  .hint {
    grid-area: hint;
    font-size: 0.875em;
    /* One line, kept whether or not a hint shows. */
    min-block-size: 1.4em;
  }
  .price {
    grid-area: price;
  }
  form > .primary {
    grid-area: buy;
  }
  @container (inline-size < 30em) {
    form {
      grid-template-columns: auto minmax(0, 1fr);
      grid-template-areas:
        'label label'
        'input buy'
        'hint hint'
        'price price';
      column-gap: calc(var(--_space) * 3);
    }
  }

  /* Quantity */
  label {
    font-weight: 500;
  }
  input {
    font: inherit;
    color: inherit;
    background: none;
    inline-size: 6em;
    padding: calc(var(--_space) * 2) calc(var(--_space) * 2) calc(var(--_space) * 2)
      calc(var(--_space) * 3);
    border: 1px solid var(--_hairline);
    border-radius: var(--_radius);
    font-size: 1.125em;
    font-weight: 600;
  }
  input:focus {
    border-color: var(--_accent);
  }
  input[aria-invalid='true'] {
    border-color: var(--_critical);
  }
  .invalid {
    color: var(--_critical);
  }

  /* Price preview: the height of its two lines whether they show or not (a price on its way,
     none for a quantity that cannot be bought); a refusal below says why there is none. */
  .price {
    min-block-size: 3.2em;
    display: grid;
    align-content: end;
  }
  .price[data-state='error'] {
    min-block-size: 0;
  }
  /* Labels small and muted, the figures the content; a narrow gap, so both fit a phone. */
  .price .line {
    gap: calc(var(--_space) * 2);
  }
  dl {
    display: grid;
    gap: calc(var(--_space) * 0.5);
    margin: 0;
  }
  dd {
    margin: 0;
    white-space: nowrap;
  }
  .now dt {
    font-size: 0.875em;
  }
  .now dd {
    font-size: 1.25em;
    font-weight: 600;
  }
  .next {
    font-size: 0.875em;
  }
  .bars {
    display: grid;
    gap: calc(var(--_space) * 2);
  }
  .skeleton {
    block-size: 1.1em;
  }
  .skeleton + .skeleton {
    inline-size: 70%;
    justify-self: end;
  }

  /* A roomier buy button. */
  form > .primary,
  .add-on > button {
    padding: calc(var(--_space) * 2.5) calc(var(--_space) * 5);
  }

  /* The add-on mode: where the add-on stands on its own line, then its price and its button
     side by side, the button under the price when the element is narrow. */
  .add-on {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: calc(var(--_space) * 3) calc(var(--_space) * 6);
  }
  .add-on-text {
    margin: 0;
    flex: 1 1 100%;
  }
  .add-on .price {
    flex: 1 1 12em;
  }
  /* Its words wrap rather than run past a narrow host ("Ajouter l’option Support prioritaire"). */
  .add-on > button {
    flex: 0 1 auto;
  }

  /* Tinted boxes (shared): success, refusal with its remedy (both laid out as a .message), and
     the dialog's price-changed notice; the success one in the success colour. */
  .outcome,
  .problem,
  .changed,
  .waits {
    margin-block-start: calc(var(--_space) * 4);
  }
  /* The plan's price per unit, while the service cannot quote one, above the remedy. */
  .unit-price {
    margin-block: calc(var(--_space) * 4) 0;
  }
  .unit-price + .problem,
  .unit-price + .waits {
    margin-block-start: calc(var(--_space) * 2);
  }
  /* What the control waits for while another element offers the remedy: a quiet line, the
     pointer after its words, or at the start of the next line when they fill it. */
  .waits {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    column-gap: calc(var(--_space) * 2);
    margin-block-end: 0;
    color: var(--_muted);
  }
  .outcome {
    border-color: color-mix(in srgb, var(--_success) 40%, transparent);
    background: color-mix(in srgb, var(--_success) 8%, transparent);
  }
  .outcome::before {
    content: '✓';
    color: var(--_success);
    font-weight: 700;
  }

  /* The confirmation dialog: the one place that takes the stage. */
  dialog {
    padding: calc(var(--_space) * 6);
    inline-size: 26rem;
    text-align: center;
  }
  /* The backdrop dims the page: in dark, more of a page that is dark already, so that the dialog
     stands out as clearly as on a light page. (Where light-dark() is unknown, a browser before
     2024, the page is not dimmed.) */
  dialog::backdrop {
    background: var(--billing-backdrop, light-dark(#0f0f1973, #000000b8));
  }
  h2 {
    margin-bottom: var(--_space);
  }
  p {
    margin: 0;
  }
  .hint,
  dt,
  .summary,
  .split,
  .label,
  .details,
  .next-term {
    color: var(--_muted);
  }
  .changed {
    color: var(--_critical);
    font-size: 0.875em;
  }
  .quote {
    margin: calc(var(--_space) * 6) 0;
    display: grid;
    gap: var(--_space);
    container-type: inline-size;
  }
  /* The headline amount shrinks to fit a narrow dialog: a recurring price keeps its period on
     its line ("19,20 $US / mois"), so it cannot wrap where a sentence would. */
  .amount {
    font-size: min(2.5em, 11cqi);
    font-weight: 650;
    line-height: 1.1;
    overflow-wrap: anywhere;
  }
  .amount[data-length='long'] {
    font-size: min(2em, 8cqi);
  }
  /* The breakdown reads as a statement: each label from the start, its amount at the end, a
     long label wrapping as a whole beside an amount that never wraps. */
  .details {
    margin: var(--_space) 0 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: calc(var(--_space) * 1.5);
    font-size: 0.875em;
    text-align: start;
  }
  .details li > :first-child {
    flex: 1;
    min-inline-size: 0;
  }
  /* An amount of the breakdown stays whole: a credit's minus sign never wraps apart from it. */
  .details li > :last-child {
    white-space: nowrap;
  }
  .next-term {
    margin-block-start: calc(var(--_space) * 2);
    padding-block-start: calc(var(--_space) * 3);
    border-block-start: 1px solid var(--_hairline);
  }
  .next-term-note,
  .taxes {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .next-term strong {
    white-space: nowrap;
    color: var(--billing-on-surface, CanvasText);
    font-weight: 600;
  }
  /* A change that takes something away says its consequence first, in the critical colour. */
  .summary[data-tone='destructive'] {
    color: var(--_critical);
    font-weight: 600;
  }
  /* Consequences, one per line, read from the start of the line: what is taken away (first,
     in the critical colour when there is something), then what stays. */
  .consequences {
    display: grid;
    gap: var(--_space);
    margin: 0;
    padding-inline-start: 1.25em;
    text-align: start;
  }
  .consequences[data-tone='destructive'] {
    color: var(--_muted);
    font-weight: 400;
  }
  .consequences[data-tone='destructive'] > li:first-child {
    color: var(--_critical);
    font-weight: 600;
  }
  .primary.destructive {
    background: var(--_critical);
    color: var(--_on-accent);
  }
  /* A primary that cannot act now (Buy, Add, a plan's choice) is no call to action: neutral,
     still a button (a tinted fill and a hairline), its words at the muted contrast of the page's
     secondary text, so that a remedy beside it (full-contrast words) leads, in light and dark. */
  .primary[aria-disabled='true'],
  .primary.destructive[aria-disabled='true'] {
    background: color-mix(in srgb, currentColor 8%, transparent);
    color: var(--_muted);
    border-color: var(--_hairline);
    opacity: 1;
  }
  /* Only a hover eases: a primary turning neutral or back is at full contrast at once, never a
     background half-way under words already changed. */
  .primary {
    transition: none;
  }
  .primary:hover:not([aria-disabled='true']) {
    transition: background-color var(--billing-duration, 180ms);
  }
  .primary.destructive:hover:not([aria-disabled='true']) {
    background: color-mix(in srgb, var(--_critical) 85%, var(--_hover-mix));
  }
  /* Cancel, then the action: side by side when both labels fit on one line each, else stacked
     at full width in the same order (the action last, as side by side), a label wrapping only
     when it is longer than the whole dialog is wide, in lines of even length. */
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) * 3);
  }
  .actions button {
    flex: 1 1 max-content;
    min-inline-size: 0;
    text-wrap: balance;
  }
  /* On a narrow screen the buttons are always stacked, and the dialog takes nearly all of its
     width: a label up to about 300px at 16px (most of them, in English and French) stays on one
     line at 360px. */
  @media (max-width: 30rem) {
    .actions {
      flex-direction: column;
    }
    dialog {
      max-inline-size: calc(100% - var(--_space) * 4);
      padding: calc(var(--_space) * 5) calc(var(--_space) * 4);
    }
    .actions button {
      padding-inline: calc(var(--_space) * 1.5);
      font-size: 0.9375em;
    }
  }
`;

export const changeStyles = [sharedStyles, ownStyles];
