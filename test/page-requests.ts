// For Playwright tests that prove a page prints no late error: what "the page has nothing left
// to say" means, as a condition rather than a pause.
import type { Page, Request } from 'playwright-core';
import { waitFor } from './time.js';

/**
 * Counts the page's requests (its frames' included) that have neither an answer nor failed,
 * from now on; answers the function that tells how many there are.
 */
export function unansweredRequests(page: Page): () => number {
  const unanswered = new Set<Request>();
  const answered = (request: Request) => unanswered.delete(request);
  page.on('request', (request) => unanswered.add(request));
  page.on('response', (response) => answered(response.request()));
  page.on('requestfailed', answered);
  page.on('requestfinished', answered);
  return () => unanswered.size;
}

/**
 * Resolves once every request of the page has its answer (a stream, its headers) and two more
 * frames are drawn: a late error (a failed read, a stream refused, a warning of a second
 * render) has been printed by then, and its console event has reached this process, which
 * hears the page's events in order.
 */
export async function pageQuiet(page: Page, unanswered: () => number): Promise<void> {
  await waitFor(() => unanswered() === 0, 'every request of the page to be answered');
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}
