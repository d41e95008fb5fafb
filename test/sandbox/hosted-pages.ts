// A small browser for the sandbox's hosted pages, over plain fetch: GET pages, follow links by
// their text, submit forms with the values a browser would send.
import { portalHash } from '../../src/sandbox/index.js';
import type { TestSandbox } from './helpers.js';

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');

export interface HostedPageView {
  url: string;
  status: number;
  html: string;
}

export async function openPage(
  url: string,
  headers: Record<string, string> = {},
): Promise<HostedPageView> {
  const response = await fetch(url, { headers, redirect: 'follow' });
  return { url: response.url, status: response.status, html: await response.text() };
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g))
    out[(m[1] as string).toLowerCase()] = unescape(m[2] ?? '');
  return out;
}

/** The href of the first link whose visible text contains `text`. */
export function findLink(page: HostedPageView, text: string): string {
  for (const m of page.html.matchAll(/<a\s([^>]*)>([\s\S]*?)<\/a\s*>/g)) {
    const label = unescape((m[2] as string).replace(/<[^>]+>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    if (label.includes(text))
      return new URL(attributes(m[1] as string).href ?? '', page.url).toString();
  }
  throw new Error(`no link with text "${text}" on ${page.url}`);
}

export interface FormView {
  action: string;
  fields: URLSearchParams;
  html: string;
}

/** Every POST form of a page with the values a browser would send by default. */
export function forms(page: HostedPageView): FormView[] {
  const out: FormView[] = [];
  for (const m of page.html.matchAll(/<form\s([^>]*)>([\s\S]*?)<\/form\s*>/g)) {
    const attrs = attributes(m[1] as string);
    if ((attrs.method ?? 'get').toLowerCase() !== 'post') continue;
    const fields = new URLSearchParams();
    for (const input of (m[2] as string).matchAll(/<input\s([^>]*)>/g)) {
      const a = attributes(input[1] as string);
      if (!a.name) continue;
      if ((a.type === 'radio' || a.type === 'checkbox') && !('checked' in a)) continue;
      fields.append(a.name, a.value ?? (a.type === 'checkbox' ? 'on' : ''));
    }
    out.push({
      action: new URL(attrs.action ?? '', page.url).toString(),
      fields,
      html: m[2] as string,
    });
  }
  return out;
}

/** Submits a form of the page (the one containing `containing`, or the first) with some fields changed. */
export async function submit(
  page: HostedPageView,
  values: Record<string, string | null> = {},
  containing?: string,
): Promise<HostedPageView> {
  const all = forms(page);
  const form = containing ? all.find((f) => f.html.includes(containing)) : all[0];
  if (!form)
    throw new Error(`no form${containing ? ` containing ${containing}` : ''} on ${page.url}`);
  const fields = new URLSearchParams(form.fields);
  for (const [name, value] of Object.entries(values)) {
    if (value === null) fields.delete(name);
    else fields.set(name, value);
  }
  const response = await fetch(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'follow',
  });
  return { url: response.url, status: response.status, html: await response.text() };
}

export const GOOD_CARD = {
  cardHolder: 'Nadia No-Card',
  cardNumber: '4242 4242 4242 4242',
  cardExpiry: '12/30',
  cardCvc: '123',
};

/** The workflow a page announces to its embedding page, or null. */
export function completedWorkflow(page: HostedPageView): string | null {
  return /<body[^>]* data-complete="([a-z]+)"/.exec(page.html)?.[1] ?? null;
}

/** Opens an in-site query of the customer the way the portal script does (in `lang`, if set). */
export async function openQuery(
  t: TestSandbox,
  customer: string,
  query: string,
  lang?: string,
): Promise<HostedPageView> {
  const opened = await fetch(
    `${t.sandbox.url}/portal/open?${new URLSearchParams({
      business_id: String(t.sandbox.businessId),
      segment_ref: t.sandbox.segment,
      customer_ref: customer,
      query,
      hash: portalHash(customer, t.sandbox.portalSecret),
      ...(lang === undefined ? {} : { lang }),
    })}`,
  ).then((response) => response.json() as Promise<{ url: string }>);
  return openPage(opened.url);
}
