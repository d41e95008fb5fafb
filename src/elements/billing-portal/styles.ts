import { css } from 'lit';
import { baseStyles, buttonStyles, messageStyles, skeletonStyles } from '../shared/styles.js';

export const billingPortalStyles = [
  ...baseStyles,
  buttonStyles,
  skeletonStyles,
  messageStyles,
  css`
    :host {
      --_min-height: var(--billing-portal-min-height, 24rem);
    }
    .portal {
      position: relative;
    }
    .frame {
      min-block-size: var(--_min-height);
    }
    .portal[data-state='open'] .frame {
      min-block-size: 0;
    }
    .frame[hidden] {
      display: none;
    }
    ::slotted(*) {
      display: block;
      inline-size: 100%;
    }
    .status {
      position: absolute;
      inset: 0 0 auto;
      display: grid;
      gap: calc(var(--_space) * 3);
      padding: calc(var(--_space) * 4) 0;
      color: var(--_muted);
    }
    .status .skeleton {
      block-size: 1em;
    }
    .status .skeleton:nth-child(2) {
      inline-size: 70%;
    }
    .status .skeleton:nth-child(3) {
      inline-size: 45%;
    }
    .message {
      padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
      border: 1px solid color-mix(in srgb, var(--_critical) 40%, transparent);
      border-radius: var(--_radius);
      background: color-mix(in srgb, var(--_critical) 6%, transparent);
    }
    a.primary {
      display: inline-block;
      text-decoration: none;
    }
    .link-skeleton {
      display: inline-block;
      inline-size: 10em;
      block-size: 2.4em;
      vertical-align: middle;
    }
  `,
];
