import { css } from 'lit';
import { sharedStyles } from '../shared/styles.js';

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
    a {
      display: inline-block;
      text-decoration: none;
    }
    /* openPortalPage's modal portal. */
    dialog {
      padding: 0;
      inline-size: 52rem;
    }
    header {
      align-items: center;
      padding: calc(var(--_space) * 3) calc(var(--_space) * 5);
      border-bottom: 1px solid var(--_hairline);
    }
    dialog .portal {
      margin: calc(var(--_space) * 5);
    }
    .link-skeleton {
      display: inline-block;
      inline-size: 10em;
      block-size: 2.4em;
      vertical-align: middle;
    }
  `,
];
