import { css } from 'lit';

/**
 * What every element starts from, in one stylesheet (the rules for one element's classes sit
 * here too when they are the same as another's: one copy in the script-tag file):
 *
 * - The color scheme: the host page's (`color-scheme` is inherited), unless the host forces one
 *   with `theme="light|dark"` or `--billing-color-scheme`. Colours that differ between light and
 *   dark are `light-dark()` pairs, resolved in the element's scheme, never the OS's alone: on a
 *   page that declares no scheme the elements stay light under a dark OS.
 * - The design tokens: each public `--billing-*` property with its fallback read on :host into
 *   a private `--_*` one; a property read in one place only (sizes, duration, track colour,
 *   focus ring) is read there, and so are the neutrals used twice. Neutrals derive from
 *   currentColor (resolved where they are used), so the elements sit on light and dark pages.
 *   `accent-color` carries the resolved accent, for what the portal hands the hosted pages.
 * - The modal dialogs (buy-feature's confirmation, the portal's) and their title.
 * - `.visually-hidden`: hidden from sight, kept for assistive technology.
 * - `.primary` (accent) and `.secondary` (quiet) buttons. Only the background eases: a button
 *   coming back from aria-disabled is at full contrast at once. Every button is one of the
 *   two, so the focus ring is for whatever shows focus (and the quantity input's focus).
 * - The focus ring: an outline in the accent, 2px wide and 2px away from the control, so it
 *   stands against the page (at least 3:1 for the default accents on light and dark pages)
 *   rather than against a button of the same colour.
 * - `.skeleton` blocks that pulse while loading (still under reduced motion).
 * - Rows of a label and its value at either end, and stacks of a label and its control.
 * - `.message` (and buy-feature's `.outcome` and `.problem`): a sentence (its `p`) beside its
 *   actions, wrapping on narrow hosts; errors and notices in a tinted box.
 * - No animation or transition at all for people who asked for reduced motion.
 */
export const sharedStyles = css`
  :host {
    /* Unset, this is invalid at computed-value time: the page's scheme is inherited. */
    color-scheme: var(--billing-color-scheme);
    --_accent: var(--billing-accent, light-dark(#4f46e5, #8b87f7));
    --_on-accent: var(--billing-on-accent, light-dark(#fff, #14123a));
    --_warning: var(--billing-warning, light-dark(#b54708, #fdb022));
    --_critical: var(--billing-critical, light-dark(#b42318, #f97066));
    --_success: var(--billing-success, light-dark(#067647, #47cd89));
    /* What a hover mixes into the accent: away from the text on it, in both schemes. */
    --_hover-mix: light-dark(#000, #fff);
    --_radius: var(--billing-radius, 8px);
    --_space: var(--billing-space, 4px);
    --_hairline: var(--billing-border-color, color-mix(in srgb, currentColor 16%, transparent));
    --_muted: var(--billing-muted-color, color-mix(in srgb, currentColor 68%, transparent));

    display: block;
    accent-color: var(--_accent);
    font-size: var(--billing-font-size, 1em);
    line-height: 1.4;
    /* Figures are the content: tabular, so they do not jump while updating. */
    font-variant-numeric: tabular-nums;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  /* Browsers without light-dark() (before 2024) get the light buttons rather than none (their
     other colours fall back to the text's). */
  @supports not (color: light-dark(#000, #fff)) {
    :host {
      --_accent: var(--billing-accent, #4f46e5);
      --_on-accent: var(--billing-on-accent, #fff);
      --_hover-mix: #000;
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }

  dialog {
    background: var(--billing-surface, Canvas);
    color: var(--billing-on-surface, CanvasText);
    border: 1px solid var(--_hairline);
    border-radius: calc(var(--_radius) * 1.5);
    box-shadow: 0 24px 48px -12px rgb(0 0 0 / 0.3);
  }
  h2 {
    margin: 0;
    font-size: 1.125em;
    font-weight: 600;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .primary,
  .secondary {
    font: inherit;
    font-weight: 600;
    padding: calc(var(--_space) * 2) calc(var(--_space) * 4);
    border: 1px solid transparent;
    border-radius: var(--_radius);
    cursor: pointer;
    transition: background-color var(--billing-duration, 180ms);
  }
  .primary {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .primary:hover:not([aria-disabled='true']) {
    background: color-mix(in srgb, var(--_accent) 85%, var(--_hover-mix));
  }
  .secondary {
    background: none;
    color: inherit;
    border-color: var(--_hairline);
  }
  .secondary:hover:not([aria-disabled='true']) {
    background: color-mix(in srgb, currentColor 6%, transparent);
  }
  /* The quiet way to the element of the page that offers a remedy (call-to-action.ts). */
  .link {
    font: inherit;
    padding: 0;
    border: 0;
    background: none;
    color: inherit;
    text-decoration: underline;
    text-underline-offset: 0.2em;
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--billing-focus-color, var(--_accent));
    outline-offset: 2px;
    box-shadow: var(--billing-focus-ring, none);
  }
  [aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }

  .skeleton {
    display: block;
    border-radius: calc(var(--_radius) / 2);
    background: color-mix(in srgb, currentColor 6%, transparent);
    animation: pulse 1.2s infinite;
  }
  @keyframes pulse {
    50% {
      opacity: 0.45;
    }
  }

  .line,
  .details li,
  .header,
  .switch,
  header {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: calc(var(--_space) * 3);
  }

  .meter,
  .quantity {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }

  .message,
  .outcome,
  .problem {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
  }
  /* The tinted box of errors: the meter's and the portal's (no data-kind), buy-feature's
     refusal, success and price-changed notice. */
  .message:not([data-kind]),
  [data-kind='error'],
  .outcome,
  .problem,
  .changed {
    padding: calc(var(--_space) * 3) calc(var(--_space) * 4);
    border: 1px solid color-mix(in srgb, var(--_critical) 40%, transparent);
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_critical) 6%, transparent);
  }
  /* A state met on load rather than a refusal of something the customer did (no plan yet, a
     checkout to complete, a suspension): the calm dashed box of the meters' empty states. */
  .problem[data-tone='calm'] {
    border: 1px dashed var(--_hairline);
    background: none;
  }
  .message p,
  .outcome p,
  .problem p {
    margin: 0;
    flex: 1 1 14em;
  }

  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
`;
