import { css } from 'lit';
import { sharedStyles } from '../shared/styles.js';

/**
 * A table of invoices: hairlines between rows, figures right-aligned in tabular numerals, the
 * state as a coloured dot and word. On a host under 50rem, where the table would not fit (its
 * French needs about 48rem), each row becomes a small card (number and amount, then date and
 * state, then the actions), its headers kept for assistive technology by the explicit roles the
 * rows carry.
 */
export const billingHistoryStyles = [
  sharedStyles,
  css`
    :host {
      container-type: inline-size;
    }
    .history {
      display: grid;
      gap: calc(var(--_space) * 3);
    }
    table {
      inline-size: 100%;
      border-collapse: collapse;
    }
    th,
    td {
      padding: calc(var(--_space) * 3) calc(var(--_space) * 2);
      text-align: start;
      vertical-align: middle;
      border-block-end: 1px solid var(--_hairline);
    }
    thead th {
      padding-block: calc(var(--_space) * 2);
      font-size: 0.8125em;
      font-weight: 600;
      color: var(--_muted);
    }
    th:first-child,
    td:first-child {
      padding-inline-start: 0;
    }
    th:last-child,
    td:last-child {
      padding-inline-end: 0;
    }
    tbody tr:last-child > * {
      border-block-end: 0;
    }
    .number {
      font-weight: 500;
      white-space: nowrap;
    }
    .number:focus-visible {
      outline-offset: -2px;
    }
    .date {
      white-space: nowrap;
    }
    .amount {
      text-align: end;
    }
    .total {
      display: block;
      font-weight: 600;
      white-space: nowrap;
    }
    .tax,
    .when,
    .count {
      display: block;
      font-size: 0.8125em;
      color: var(--_muted);
    }
    .badge {
      display: inline-flex;
      align-items: center;
      gap: calc(var(--_space) * 1.5);
      font-weight: 600;
      white-space: nowrap;
    }
    .badge::before {
      content: '';
      inline-size: 0.5em;
      block-size: 0.5em;
      border-radius: 50%;
      background: currentColor;
    }
    .badge[data-status='paid'] {
      color: var(--_success);
    }
    /* To pay, not late: the word in the text's colour, the dot in the accent. */
    .badge[data-status='due']::before {
      background: var(--_accent);
    }
    .badge[data-status='overdue'] {
      color: var(--_critical);
    }
    .badge[data-status='credit-note'],
    .badge[data-status='cancelled'],
    .badge[data-status='other'] {
      color: var(--_muted);
    }
    .actions {
      text-align: end;
      white-space: nowrap;
    }
    .actions > * + * {
      margin-inline-start: calc(var(--_space) * 2);
    }
    a.primary,
    a.secondary {
      display: inline-block;
      text-decoration: none;
    }
    .actions .primary,
    .actions .secondary,
    .footer .secondary {
      padding: calc(var(--_space) * 1.5) calc(var(--_space) * 3);
    }
    /* Each skeleton about the width of what comes, where it comes (no inline styles: CSP). */
    .skeleton-row .skeleton {
      block-size: 1em;
      inline-size: 6em;
    }
    .skeleton-row .number .skeleton {
      inline-size: 8em;
    }
    .skeleton-row .amount .skeleton,
    .skeleton-row .status .skeleton {
      inline-size: 4.5em;
    }
    .skeleton-row .amount .skeleton {
      margin-inline-start: auto;
    }
    .skeleton-row .actions .skeleton {
      display: inline-block;
      inline-size: 4em;
      block-size: 2.25em;
    }
    .footer {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
    }
    .notice {
      margin: 0;
      padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
      border-inline-start: 3px solid var(--_critical);
      background: color-mix(in srgb, var(--_critical) 6%, transparent);
      border-radius: calc(var(--_radius) / 2);
    }
    .message[data-kind='calm'] {
      padding: calc(var(--_space) * 4);
      border: 1px dashed var(--_hairline);
      border-radius: var(--_radius);
    }

    @container (max-width: 50rem) {
      thead {
        position: absolute;
        inline-size: 1px;
        block-size: 1px;
        overflow: hidden;
        clip-path: inset(50%);
      }
      tbody,
      tr,
      th,
      td {
        display: block;
      }
      tbody tr {
        display: grid;
        grid-template-columns: 1fr auto;
        grid-template-areas:
          'number amount'
          'date status'
          'actions actions';
        gap: calc(var(--_space) * 1) calc(var(--_space) * 3);
        padding-block: calc(var(--_space) * 3);
        border-block-end: 1px solid var(--_hairline);
      }
      tbody tr:last-child {
        border-block-end: 0;
      }
      tbody th,
      tbody td {
        padding: 0;
        border: 0;
      }
      .number {
        grid-area: number;
      }
      .amount {
        grid-area: amount;
      }
      .date {
        grid-area: date;
        color: var(--_muted);
        font-size: 0.875em;
      }
      .status {
        grid-area: status;
        text-align: end;
      }
      .status .when {
        display: none;
      }
      .actions {
        grid-area: actions;
        text-align: start;
        padding-block-start: calc(var(--_space) * 1);
      }
      .actions:empty {
        display: none;
      }
    }
  `,
];
