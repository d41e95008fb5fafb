import { unsafeCSS, type CSSResult } from 'lit';

/**
 * The elements' `css` tag: a stylesheet written as one literal, with nothing interpolated (the
 * type refuses `${…}`), so there is nothing for lit's `css` to check.
 */
export const css = (literal: TemplateStringsArray): CSSResult => unsafeCSS(literal[0]);

/**
 * What every element starts from, in one stylesheet (every element uses all of it):
 *
 * - The design tokens: each public `--billing-*` property with its fallback read on :host into
 *   a private `--_*` one (the sizes used in one place only read theirs there). Neutrals derive
 *   from currentColor, so the elements sit on light and dark pages alike.
 * - `.visually-hidden`: hidden from sight, kept for assistive technology.
 * - `.primary` (accent) and `.secondary` (quiet) buttons. Only the background eases: a button
 *   coming back from aria-disabled is at full contrast at once.
 * - `.skeleton` blocks that pulse while loading (still under reduced motion).
 * - `.message` (and buy-feature's `.outcome` and `.problem`): a sentence (its `p`) beside its
 *   actions, wrapping on narrow hosts.
 * - No animation or transition at all for people who asked for reduced motion.
 */
export const sharedStyles = css`
  :host {
    --_accent: var(--billing-accent, #4f46e5);
    --_on-accent: var(--billing-on-accent, #fff);
    --_warning: var(--billing-warning, #b54708);
    --_critical: var(--billing-critical, #b42318);
    --_success: var(--billing-success, #067647);
    --_radius: var(--billing-radius, 8px);
    --_space: var(--billing-space, 4px);
    --_hairline: var(--billing-border-color, color-mix(in srgb, currentColor 16%, transparent));
    --_muted: var(--billing-muted-color, color-mix(in srgb, currentColor 68%, transparent));
    --_track: var(--billing-track-color, color-mix(in srgb, currentColor 12%, transparent));
    --_subtle: color-mix(in srgb, currentColor 6%, transparent);
    --_focus: var(
      --billing-focus-ring,
      0 0 0 2px color-mix(in srgb, var(--_accent) 45%, transparent)
    );
    --_duration: var(--billing-duration, 180ms);

    display: block;
    font-size: var(--billing-font-size, 1em);
    line-height: 1.4;
    /* Figures are the content: tabular, so they do not jump while updating. */
    font-variant-numeric: tabular-nums;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_accent: var(--billing-accent, #8b87f7);
      --_on-accent: var(--billing-on-accent, #14123a);
      --_warning: var(--billing-warning, #fdb022);
      --_critical: var(--billing-critical, #f97066);
      --_success: var(--billing-success, #47cd89);
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
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
    transition: background-color var(--_duration);
  }
  .primary {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .primary:hover:not([aria-disabled='true']) {
    background: color-mix(in srgb, var(--_accent) 88%, currentColor);
  }
  .secondary {
    background: none;
    color: inherit;
    border-color: var(--_hairline);
  }
  .secondary:hover:not([aria-disabled='true']) {
    background: var(--_subtle);
  }
  .primary:focus-visible,
  .secondary:focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }
  [aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }

  .skeleton {
    display: block;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_subtle);
    animation: pulse 1.2s infinite;
  }
  @keyframes pulse {
    50% {
      opacity: 0.45;
    }
  }

  .message,
  .outcome,
  .problem {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
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
