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
    /* The frame lays out and loads unseen until its first page has loaded. */
    [data-framing] > .frame {
      visibility: hidden;
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
    /* openPortalPage's modal portal: as tall as the hosted page it shows (the frame follows its
       content), within the viewport. */
    dialog {
      padding: 0;
      inline-size: 52rem;
    }
    /* Dimmed as the confirmation dialogs dim it (change-styles.ts). */
    dialog::backdrop {
      background: var(--billing-backdrop, light-dark(#0f0f1973, #000000b8));
    }
    /* Close turning into Done changes at once: no colour to read half-way through a transition. */
    header .primary,
    header .secondary {
      transition: none;
    }
    header {
      align-items: center;
      padding: calc(var(--_space) * 3) calc(var(--_space) * 5);
      border-bottom: 1px solid var(--_hairline);
    }
    dialog .portal {
      margin: calc(var(--_space) * 5);
    }
    /* On a phone, a bottom sheet: the whole width, from the bottom up, the hosted page nearly
       edge to edge (a framed page keeps narrow margins of its own, the sheet adds as much). */
    @media (max-width: 640px) {
      dialog {
        inline-size: 100%;
        max-inline-size: 100%;
        max-block-size: calc(100% - calc(var(--_space) * 6));
        margin: auto 0 0;
        border-block-end: 0;
        border-radius: calc(var(--_radius) * 2) calc(var(--_radius) * 2) 0 0;
      }
      header {
        padding-inline: calc(var(--_space) * 4);
      }
      dialog .portal {
        margin: 0 calc(var(--_space) * 1.5);
      }
    }
    .link-skeleton {
      display: inline-block;
      inline-size: 10em;
      block-size: 2.4em;
      vertical-align: middle;
    }
  `,
];
