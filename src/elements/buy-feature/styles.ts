import { css } from 'lit';
import { baseStyles, buttonStyles, skeletonStyles } from '../shared/styles.js';

const ownStyles = css`
  form {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-end;
    gap: calc(var(--_space) * 4) calc(var(--_space) * 6);
    margin: 0;
  }

  /* Quantity */
  .quantity {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }
  label {
    font-weight: 500;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .stepper {
    display: inline-flex;
    align-items: stretch;
    border: 1px solid var(--_hairline);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  .stepper:focus-within {
    border-color: var(--_accent);
    box-shadow: var(--_focus);
  }
  .stepper[data-invalid] {
    border-color: var(--_critical);
  }
  .stepper button {
    all: unset;
    display: grid;
    place-items: center;
    inline-size: 2.5em;
    cursor: pointer;
    color: var(--_muted);
    font-size: 1.125em;
    line-height: 1;
    user-select: none;
    transition: background-color var(--_duration) ease;
  }
  .stepper button:hover:not([aria-disabled='true']),
  .stepper button:focus-visible {
    background: var(--_subtle);
    color: inherit;
  }
  .stepper button:focus-visible {
    color: var(--_accent);
    outline: none;
  }
  input {
    font: inherit;
    color: inherit;
    background: transparent;
    inline-size: 4.5em;
    padding: calc(var(--_space) * 2) 0;
    border: 0;
    border-inline: 1px solid var(--_hairline);
    text-align: center;
    font-variant-numeric: tabular-nums;
    font-size: 1.125em;
    font-weight: 600;
    appearance: textfield;
    -moz-appearance: textfield;
  }
  input::-webkit-inner-spin-button,
  input::-webkit-outer-spin-button {
    appearance: none;
    margin: 0;
  }
  input:focus {
    outline: none;
  }
  .invalid {
    flex-basis: 100%;
    margin: 0;
    color: var(--_critical);
    font-size: 0.875em;
  }

  /* Price preview */
  .price {
    flex: 1 1 12em;
    min-block-size: 3.2em;
    display: grid;
    align-content: end;
  }
  dl {
    display: grid;
    gap: calc(var(--_space) * 0.5);
    margin: 0;
  }
  .line {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: calc(var(--_space) * 3);
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
    text-align: end;
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
  .bars .skeleton {
    block-size: 1.1em;
  }
  .bars .skeleton:last-child {
    inline-size: 70%;
    justify-self: end;
    block-size: 0.9em;
  }

  /* Buttons: shared look, a roomier buy button. Only the background eases: a button coming
     back from aria-disabled is at full contrast at once. */
  form > .primary {
    padding: calc(var(--_space) * 2.5) calc(var(--_space) * 5);
  }
  .primary,
  .secondary {
    transition: background-color var(--_duration) ease;
  }
  .primary[aria-busy='true'] {
    cursor: progress;
  }

  /* Outcome: success, refusal with its remedy */
  .outcome,
  .problem {
    margin-block-start: calc(var(--_space) * 4);
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
    padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
    border-radius: var(--_radius);
    border: 1px solid var(--_hairline);
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
  .problem {
    border-color: color-mix(in srgb, var(--_critical) 40%, transparent);
    background: color-mix(in srgb, var(--_critical) 6%, transparent);
  }
  .problem p,
  .outcome p {
    margin: 0;
    flex: 1 1 14em;
  }

  /* The confirmation dialog: the one place that takes the stage. */
  dialog {
    color-scheme: light dark;
    background: var(--billing-surface, Canvas);
    color: var(--billing-on-surface, CanvasText);
    border: 1px solid var(--_hairline);
    border-radius: calc(var(--_radius) * 1.5);
    padding: calc(var(--_space) * 7) calc(var(--_space) * 7) calc(var(--_space) * 6);
    inline-size: min(26rem, calc(100vw - 2rem));
    box-shadow:
      0 24px 48px -12px rgb(0 0 0 / 0.28),
      0 4px 12px rgb(0 0 0 / 0.08);
    text-align: center;
  }
  dialog[open] {
    animation: rise var(--_duration) ease-out;
  }
  dialog::backdrop {
    background: var(--billing-backdrop, rgb(15 15 25 / 0.45));
    backdrop-filter: blur(2px);
  }
  @keyframes rise {
    from {
      opacity: 0;
      transform: translateY(8px) scale(0.98);
    }
  }
  h2 {
    margin: 0 0 var(--_space);
    font-size: 1.125em;
    font-weight: 600;
  }
  .summary {
    margin: 0;
    color: var(--_muted);
  }
  .changed {
    margin: calc(var(--_space) * 4) 0 0;
    padding: calc(var(--_space) * 2) calc(var(--_space) * 3);
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_critical) 8%, transparent);
    color: var(--_critical);
    font-size: 0.875em;
  }
  .quote {
    margin: calc(var(--_space) * 6) 0;
    display: grid;
    gap: var(--_space);
  }
  .quote p {
    margin: 0;
  }
  .quote .label {
    color: var(--_muted);
  }
  .quote .amount {
    font-size: 2.5em;
    font-weight: 650;
    line-height: 1.1;
    letter-spacing: -0.02em;
    font-variant-numeric: tabular-nums;
  }
  .details {
    margin: var(--_space) auto 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: calc(var(--_space) * 0.5);
    max-inline-size: 20em;
    color: var(--_muted);
    font-size: 0.875em;
    font-variant-numeric: tabular-nums;
  }
  .details li {
    display: flex;
    justify-content: space-between;
    gap: calc(var(--_space) * 4);
  }
  .quote .next-term {
    margin-block-start: calc(var(--_space) * 2);
    padding-block-start: calc(var(--_space) * 3);
    border-block-start: 1px solid var(--_hairline);
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .quote .next-term strong {
    white-space: nowrap;
    color: var(--billing-on-surface, CanvasText);
    font-weight: 600;
  }
  .actions {
    display: flex;
    gap: calc(var(--_space) * 3);
    justify-content: center;
  }
  .actions button {
    flex: 1 1 0;
  }
`;

export const buyFeatureStyles = [...baseStyles, buttonStyles, skeletonStyles, ownStyles];
