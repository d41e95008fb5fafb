import { css } from 'lit';

/**
 * The decrease row of `allow-decrease` (decrease-templates.ts), in a module of its own: the plan
 * picker shares changeStyles, and a stylesheet added there would go with it.
 */
export const decreaseStyles = css`
  /* A decrease: how many can be removed, and Remove beside it (under it when narrow), set
     apart from the purchase above by a hairline. */
  .decrease {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2) calc(var(--_space) * 4);
    margin-top: calc(var(--_space) * 4);
    padding-top: calc(var(--_space) * 4);
    border-top: 1px solid var(--_hairline);
  }
  .decrease-text {
    margin: 0;
    flex: 1 1 14em;
    color: var(--_muted);
  }
  .decrease > button {
    flex: 0 1 auto;
  }
`;
