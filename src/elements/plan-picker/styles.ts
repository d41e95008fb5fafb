import { css } from 'lit';
import { changeStyles } from '../shared/change-styles.js';

// The plan picker's own rules. The shared tokens, buttons, skeletons, message boxes and the
// confirmation dialog's look (price block, actions) come from shared/change-styles.ts, as
// <buy-feature>'s do, so both dialogs look the same and the script-tag file carries them once.
const ownStyles = css`
  /*
   * The cards in balanced rows: two, three or four plans sit all on one row when they fit
   * (13rem each and the 1rem gaps; a query cannot read --billing-space), four in two rows of
   * two, else one per row: never a card alone under the others. More plans fill rows of 13rem.
   * The box around the list is the size container (the host stays a plain block for the page).
   */
  .cards {
    container-type: inline-size;
  }
  .offers {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: calc(var(--_space) * 4);
  }
  .offers:not([data-count='2'], [data-count='3'], [data-count='4']) {
    grid-template-columns: repeat(auto-fit, minmax(min(13rem, 100%), 1fr));
  }
  @container (inline-size >= 27rem) {
    .offers:is([data-count='2'], [data-count='4']) {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
  }
  @container (inline-size >= 41rem) {
    .offers[data-count='3'] {
      grid-template-columns: repeat(3, minmax(0, 1fr));
    }
  }
  /* Four in a row only where a card has room for a price on one line ("$499.00 / month"). */
  @container (inline-size >= 68rem) {
    .offers[data-count='4'] {
      grid-template-columns: repeat(4, minmax(0, 1fr));
    }
  }
  .offer {
    display: flex;
    flex-direction: column;
    gap: calc(var(--_space) * 3);
    padding: calc(var(--_space) * 5);
    border: 1px solid var(--_hairline);
    border-radius: var(--_radius);
  }
  .offer[data-current] {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
  }
  h3 {
    margin: 0;
    font-size: 1.125em;
    font-weight: 600;
  }
  .description {
    margin: 0;
    color: var(--_muted);
    font-size: 0.875em;
  }
  .recurring {
    margin: 0;
    font-size: 1.5em;
    font-weight: 650;
    line-height: 1.2;
  }
  /* The dialog's new recurring price compared with the current one wraps between the two
     prices (each kept on one line) rather than widening the dialog. */
  .next-term strong {
    white-space: normal;
  }
  /* Under the plans: whether their prices include tax. */
  .cards + .taxes {
    margin-block: calc(var(--_space) * 3) 0;
  }
  /* Beneath the price the customer pays: the list price and what adds to it, secondary. */
  .at-use,
  .discount {
    margin: 0;
    color: var(--_muted);
    font-size: 0.875em;
  }
  .features {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: calc(var(--_space) * 1.5);
    font-size: 0.875em;
    flex: 1;
  }
  .features li::before {
    content: '✓ ';
    color: var(--_success);
    font-weight: 700;
  }
  .features li[data-absent] {
    color: var(--_muted);
  }
  .features li[data-absent]::before {
    content: '– ';
    color: inherit;
  }
  .action {
    min-block-size: 2.6em;
    display: flex;
    align-items: center;
  }
  .action > * {
    inline-size: 100%;
    text-align: center;
  }
  .badge {
    margin: 0;
    padding: calc(var(--_space) * 2);
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_accent) 12%, transparent);
    font-weight: 600;
  }
  /* The plan a scheduled change moves to: a date, calmer than the current plan's badge. */
  .badge.scheduled {
    background: none;
    border: 1px dashed var(--_hairline);
    font-weight: 500;
  }
  a.secondary {
    display: inline-block;
    text-decoration: none;
  }
  .on-request {
    margin: 0;
    color: var(--_muted);
  }
  .notice {
    margin-block-end: calc(var(--_space) * 4);
    padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
    border: 1px solid var(--_hairline);
    border-radius: var(--_radius);
  }
  .loading .offer .skeleton {
    block-size: 1.2em;
  }
  .loading .offer .skeleton.tall {
    block-size: 1.8em;
    inline-size: 60%;
  }
  .loading .offer .skeleton.block {
    block-size: 5em;
  }
  .loading .offer .skeleton.button {
    block-size: 2.6em;
  }
  .effective {
    font-weight: 600;
  }
`;

export const planPickerStyles = [changeStyles, ownStyles];
