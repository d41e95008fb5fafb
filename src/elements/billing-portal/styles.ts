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
    /* openPortalPage's modal portal. */
    dialog {
      color-scheme: light dark;
      background: var(--billing-surface, Canvas);
      color: var(--billing-on-surface, CanvasText);
      border: 1px solid var(--_hairline);
      border-radius: calc(var(--_radius) * 1.5);
      padding: 0;
      inline-size: 52rem;
      box-shadow: 0 24px 48px -12px rgb(0 0 0 / 0.3);
    }
    header {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: calc(var(--_space) * 3);
      padding: calc(var(--_space) * 3) calc(var(--_space) * 5);
      border-bottom: 1px solid var(--_hairline);
    }
    h2 {
      margin: 0;
      font-size: 1.125em;
      font-weight: 600;
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
