import { css } from 'lit';
import { sharedStyles } from '../shared/styles.js';

// The styles of the states other than figures are notices.ts's, which adopts them with the
// states: a page of figures downloads neither.
export const usageMeterStyles = [
  sharedStyles,
  css`
    .list {
      display: grid;
      gap: calc(var(--_space) * 5);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li + li {
      padding-block-start: calc(var(--_space) * 5);
      border-block-start: 1px solid var(--_hairline);
    }

    [data-level='warning'] {
      --_fill: var(--_warning);
    }
    [data-level='critical'] {
      --_fill: var(--_critical);
    }

    .label {
      font-weight: 500;
    }
    /* --_fill is only set past a threshold: elsewhere (extra) the colour is invalid, so inherited. */
    .level {
      font-size: 0.875em;
      font-weight: 600;
      white-space: nowrap;
      color: color-mix(in srgb, var(--_fill) 80%, currentColor);
    }

    .figures {
      margin: 0;
      line-height: 1.1;
    }
    .figure {
      font-size: var(--billing-figure-size, 1.75em);
      font-weight: 650;
    }
    .of {
      color: var(--_muted);
    }

    .track {
      display: flex;
      gap: 2px;
      block-size: var(--billing-track-height, 8px);
      border-radius: 999px;
      background: var(--billing-track-color, color-mix(in srgb, currentColor 12%, transparent));
      overflow: hidden;
    }
    .fill {
      block-size: 100%;
      border-radius: inherit;
      background: var(--_fill, var(--_accent));
      /* Its width and colour, the only properties that change. */
      transition: var(--billing-duration, 180ms) ease-out;
    }

    /* Bought beyond the plan: the customer's choice, in a neutral tone apart from the included part. */
    .fill.extra {
      background: var(--billing-extra, color-mix(in srgb, currentColor 45%, transparent));
    }
    [data-pending] .figure {
      color: var(--_muted);
    }

    .covered .of {
      font-size: 0.875em;
    }

    .detail {
      margin: 0;
      color: var(--_muted);
      font-size: 0.875em;
    }
    /* The reserved detail row of a single meter: one line, empty or not. */
    .meter > .detail {
      min-block-size: 1lh;
    }
    /* A skeleton's bones: empty lines (a no-break space) of the loaded meter's classes, drawn
       as grey bars in the text's colour (the shared .skeleton). */
    .bone {
      display: inline-block;
    }
    .label-bone {
      inline-size: 40%;
    }
    .figure-bone {
      inline-size: 30%;
    }
    .detail-bone {
      inline-size: 45%;
    }
    /* Two classes: above .state, which comes later. */
    .state.state-bone {
      inline-size: 6.5em;
      border-color: transparent;
    }
    .state.state-bone::before {
      content: none;
    }

    /* The label and its badge share a line while both fit whole; on a narrow host the badge
       goes under the label rather than squeeze it or run past the edge, and a badge wider than
       the line wraps its words. */
    .switch {
      align-items: center;
      flex-wrap: wrap;
    }
    .state {
      display: inline-flex;
      align-items: center;
      gap: calc(var(--_space) * 1.5);
      padding: calc(var(--_space) * 0.5) calc(var(--_space) * 2.5);
      border-radius: 999px;
      border: 1px solid var(--_hairline);
      font-size: 0.875em;
    }
    .state::before {
      content: '';
      inline-size: 0.5em;
      block-size: 0.5em;
      border-radius: 50%;
      background: var(--billing-track-color, color-mix(in srgb, currentColor 12%, transparent));
    }
    .state[data-on] {
      border-color: color-mix(in srgb, var(--_success) 40%, transparent);
    }
    .state[data-on]::before {
      background: var(--_success);
    }

    .unlimited {
      margin-inline-start: calc(var(--_space) * 2);
      padding: calc(var(--_space) * 0.5) calc(var(--_space) * 2);
      border-radius: 999px;
      background: color-mix(in srgb, var(--_accent) 12%, transparent);
      font-size: 0.875em;
      font-weight: 600;
      vertical-align: middle;
    }
  `,
];
