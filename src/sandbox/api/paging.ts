import { intParam } from './validate.js';

// Paged lists (`Page`, `SizePage`, `Count`, `TotalItems`, `Items`): Page is 1-based, SizePage
// 10 by default and at most 1000. Lists whose count alone is useful (offers, features) accept
// SizePage=0, which answers the count and no item.

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE = 1_000_000;

export interface PageRequest {
  page: number;
  size: number;
}

export function pageParams(query: URLSearchParams, options: { minSize: 0 | 1 }): PageRequest {
  return {
    page: intParam(query, 'Page', 1, 1, MAX_PAGE),
    size: intParam(query, 'SizePage', DEFAULT_PAGE_SIZE, options.minSize, MAX_PAGE_SIZE),
  };
}

export function paged<T>(items: T[], { page, size }: PageRequest) {
  const start = (page - 1) * size;
  const pageItems = items.slice(start, start + size);
  return {
    Page: page,
    SizePage: size,
    Count: pageItems.length,
    TotalItems: items.length,
    Items: pageItems,
  };
}

/** The page of `records`, each presented: only the records of the page are presented. */
export function pagedAs<R, T>(records: R[], page: PageRequest, present: (record: R) => T) {
  const result = paged(records, page);
  return { ...result, Items: result.Items.map(present) };
}
