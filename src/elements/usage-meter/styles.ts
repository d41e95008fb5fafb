import { css } from 'lit';
import { baseStyles, buttonStyles, messageStyles, skeletonStyles } from '../shared/styles.js';

export const usageMeterStyles = [
  ...baseStyles,
  buttonStyles,
  skeletonStyles,
  messageStyles,
  css`
    :host {
      --_track-height: var(--billing-track-height, 8px);
      --_fill: var(--_accent);
    }

    .list {
      display: grid;
      gap: calc(var(--_space) * 5);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .list > li + li {
      padding-block-start: calc(var(--_space) * 5);
      border-block-start: 1px solid var(--_hairline);
    }

    .meter {
      display: grid;
      gap: calc(var(--_space) * 1.5);
    }
    .meter[data-level='warning'] {
      --_fill: var(--_warning);
    }
    .meter[data-level='critical'] {
      --_fill: var(--_critical);
    }

    .header {
      display: flex;
      align-items: baseline;
      justify-content: space-between;
      gap: calc(var(--_space) * 3);
      min-block-size: 1.4em;
    }
    .label {
      font-weight: 500;
    }
    .level {
      font-size: 0.875em;
      font-weight: 600;
      font-variant-numeric: tabular-nums;
      white-space: nowrap;
    }
    .meter:is([data-level='warning'], [data-level='critical']) .level {
      color: color-mix(in srgb, var(--_fill) 80%, currentColor);
    }

    .figures {
      margin: 0;
      line-height: 1.1;
      font-variant-numeric: tabular-nums;
      min-block-size: calc(var(--_figure-size) * 1.1);
    }
    .figure {
      font-size: var(--_figure-size);
      font-weight: 650;
      letter-spacing: -0.02em;
    }
    .of {
      color: var(--_muted);
    }

    .track {
      position: relative;
      block-size: var(--_track-height);
      border-radius: 999px;
      background: var(--_track);
      overflow: hidden;
    }
    .fill {
      block-size: 100%;
      inline-size: 0;
      border-radius: inherit;
      background: var(--_fill);
      transition:
        inline-size var(--_duration) ease-out,
        background-color var(--_duration) ease-out;
    }

    .detail {
      margin: 0;
      min-block-size: 1.4em;
      color: var(--_muted);
      font-size: 0.875em;
    }

    .switch {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: calc(var(--_space) * 3);
    }
    .state {
      display: inline-flex;
      align-items: center;
      gap: calc(var(--_space) * 1.5);
      padding: calc(var(--_space) * 0.5) calc(var(--_space) * 2.5);
      border-radius: 999px;
      border: 1px solid var(--_hairline);
      font-size: 0.875em;
      white-space: nowrap;
    }
    .state::before {
      content: '';
      inline-size: 0.5em;
      block-size: 0.5em;
      border-radius: 50%;
      background: var(--_track);
    }
    .state[data-on] {
      border-color: color-mix(in srgb, var(--_success) 40%, transparent);
    }
    .state[data-on]::before {
      background: var(--_success);
    }

    .unlimited {
      display: inline-block;
      margin-inline-start: calc(var(--_space) * 2);
      padding: calc(var(--_space) * 0.5) calc(var(--_space) * 2);
      border-radius: 999px;
      background: color-mix(in srgb, var(--_accent) 12%, transparent);
      color: inherit;
      font-size: 0.875rem;
      font-weight: 600;
      vertical-align: middle;
    }

    .message[data-kind='error'] p::before {
      content: '!';
      display: inline-grid;
      place-items: center;
      inline-size: 1.25em;
      block-size: 1.25em;
      margin-inline-end: calc(var(--_space) * 2);
      border-radius: 50%;
      background: color-mix(in srgb, var(--_critical) 14%, transparent);
      color: var(--_critical);
      font-weight: 700;
      font-size: 0.875em;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) * 2);
    }

    .skeleton.label-bone {
      inline-size: 40%;
      block-size: 1em;
      margin-block: 0.2em;
    }
    .skeleton.figure-bone {
      inline-size: 30%;
      block-size: calc(var(--_figure-size) * 0.9);
      margin-block: calc(var(--_figure-size) * 0.1);
    }
  `,
];
