import { css } from 'lit';

/**
 * The design tokens of every element: each public `--billing-*` property read once on :host
 * with its fallback into a private `--_*` one. Neutrals derive from currentColor, so the
 * elements sit on light and dark pages alike.
 */
export const tokenStyles = css`
  :host {
    --_accent: var(--billing-accent, #4f46e5);
    --_on-accent: var(--billing-on-accent, #fff);
    --_warning: var(--billing-warning, #b54708);
    --_critical: var(--billing-critical, #b42318);
    --_success: var(--billing-success, #067647);
    --_radius: var(--billing-radius, 8px);
    --_space: var(--billing-space, 4px);
    --_font-size: var(--billing-font-size, 1em);
    --_figure-size: var(--billing-figure-size, 1.75em);
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
    font: inherit;
    font-size: var(--_font-size);
    color: inherit;
    line-height: 1.4;
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
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
`;

/** Hidden from sight, kept for assistive technology. */
export const visuallyHiddenStyles = css`
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
`;

/** `.primary` (accent) and `.secondary` (quiet) buttons, `.link` for a text action. */
export const buttonStyles = css`
  .primary,
  .secondary,
  .link {
    font: inherit;
    font-weight: 600;
    border-radius: var(--_radius);
    cursor: pointer;
    border: 1px solid transparent;
    transition:
      background-color var(--_duration) ease,
      opacity var(--_duration) ease;
  }
  .primary,
  .secondary {
    padding: calc(var(--_space) * 2) calc(var(--_space) * 4);
  }
  .primary {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .primary:hover:not([aria-disabled='true']) {
    background: color-mix(in srgb, var(--_accent) 88%, currentColor);
  }
  .secondary {
    background: transparent;
    color: inherit;
    border-color: var(--_hairline);
  }
  .secondary:hover:not([aria-disabled='true']) {
    background: var(--_subtle);
  }
  .link {
    padding: 0;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  .primary:focus-visible,
  .secondary:focus-visible,
  .link:focus-visible,
  a:focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }
  [aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }
`;

/** `.skeleton` blocks that pulse while loading (still under reduced motion). */
export const skeletonStyles = css`
  .skeleton {
    display: block;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_subtle);
    animation: billing-pulse 1.2s ease-in-out infinite;
  }
  @keyframes billing-pulse {
    50% {
      opacity: 0.45;
    }
  }
`;

/** `.message`: a sentence (its `p`) beside its actions, wrapping on narrow hosts. */
export const messageStyles = css`
  .message {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
  }
  .message p {
    margin: 0;
    flex: 1 1 14em;
  }
`;

/** No animation or transition at all for people who asked for reduced motion. */
export const reducedMotionStyles = css`
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
    }
  }
`;

/** The tokens and the base rules every element starts from. */
export const baseStyles = [tokenStyles, visuallyHiddenStyles, reducedMotionStyles];
