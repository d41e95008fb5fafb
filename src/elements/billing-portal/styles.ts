import { css, sharedStyles } from '../shared/styles.js';

export const billingPortalStyles = [
  sharedStyles,
  css`
    .portal {
      position: relative;
    }
    /* Room kept for the portal until it is open and sizes itself. */
    :not([data-state='open']) > .frame {
      min-block-size: var(--billing-portal-min-height, 24rem);
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
      inline-size: 70%;
    }
    .skeleton + .skeleton {
      inline-size: 45%;
    }
    .message {
      padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
      border: 1px solid color-mix(in srgb, var(--_critical) 40%, transparent);
      border-radius: var(--_radius);
      background: color-mix(in srgb, var(--_critical) 6%, transparent);
    }
    a {
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
