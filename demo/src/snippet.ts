// Builds the copy-paste snippet of the builder, and the document that previews it.

export interface SnippetInput {
  tag: string;
  /** The element's own attributes, in order. */
  attributes: [string, string][];
  /** The billing proxy's URL. */
  endpoint: string;
  /**
   * Where the package's browser files are served: the folder of billing-elements.js, whose
   * cdn/ folder holds each element's module.
   */
  filesUrl: string;
  /** What goes between the tags, as HTML. */
  content?: string;
  /** 'en', 'fr', or '' for the page's language. */
  lang: string;
  /** A CSS colour for --billing-accent, or '' for the elements' own. */
  accent: string;
  /**
   * How the proxy knows the customer: its app's session cookie (a page on the app's site), or a
   * token the page gives (a page on another site, where that cookie is a blocked third-party one).
   */
  identity?: 'cookie' | 'token';
}

/** Where the site's own code gives the token: the one line its owner replaces. */
export const TOKEN_PLACEHOLDER = 'https://your-site.example/billing-token';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function buildSnippet(input: SnippetInput): string {
  const attributes: [string, string][] = [...input.attributes];
  if (input.endpoint) attributes.push(['endpoint', input.endpoint]);
  if (input.lang) attributes.push(['lang', input.lang]);
  if (input.accent) attributes.push(['style', `--billing-accent: ${input.accent}`]);
  const rendered = attributes.map(([name, value]) => `${name}="${escapeAttribute(value)}"`);
  const content = input.content ? `\n  ${input.content}\n` : '';
  const oneLine = `<${input.tag} ${rendered.join(' ')}>${content}</${input.tag}>`;
  const element =
    oneLine.length <= 80 || rendered.length < 2
      ? oneLine
      : `<${input.tag}\n${rendered.map((attribute) => `  ${attribute}`).join('\n')}\n>${content}</${input.tag}>`;
  return `${input.identity === 'token' ? tokenScriptFor(input) : scriptFor(input)}\n${element}`;
}

/**
 * With token identity: the all-in-one script, whose `BillingElements.configureBilling` the next
 * script calls before the element starts, with a clear place for the site's own token source.
 */
function tokenScriptFor({ filesUrl }: SnippetInput): string {
  const src = `${filesUrl.replace(/\/+$/, '')}/billing-elements.js`;
  return `<script src="${escapeAttribute(src)}"></script>
<script>
  BillingElements.configureBilling({
    // REPLACE: give the signed-in visitor's token, from your identity provider's
    // SDK or a route of your server that calls mintCustomerToken (null if signed out).
    token: async () => (await fetch("${TOKEN_PLACEHOLDER}")).text(),
  });
</script>`;
}

/**
 * The smallest script for one element: its own module (the element, and the core every element
 * shares), not the autoloader (one more file first) nor billing-elements.js (all five).
 */
function scriptFor({ filesUrl, tag }: SnippetInput): string {
  const src = `${filesUrl.replace(/\/+$/, '')}/cdn/${tag}.js`;
  return `<script type="module" src="${escapeAttribute(src)}"></script>`;
}

/** The snippet as HTML with token spans, for the code block. */
export function highlight(snippet: string): string {
  return snippet
    .split(/(<\/?[a-z-]+|>|[a-z-]+=|"[^"]*")/g)
    .map((part) => {
      if (part === '') return '';
      if (/^<\/?[a-z-]+$/.test(part) || part === '>')
        return `<span class="tok-tag">${escapeText(part)}</span>`;
      if (/^[a-z-]+=$/.test(part))
        return `<span class="tok-attr">${escapeText(part.slice(0, -1))}</span>=`;
      if (/^"[^"]*"$/.test(part)) return `<span class="tok-value">${escapeText(part)}</span>`;
      return escapeText(part);
    })
    .join('');
}

/** A page holding only the snippet, as a site builder's HTML block would. */
export function previewDocument(snippet: string, lang: string): string {
  return `<!doctype html>
<html lang="${escapeAttribute(lang)}">
<head>
<meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<title>Snippet preview</title>
<style>
  body { margin: 0; padding: 20px; font: 15px/1.5 -apple-system, BlinkMacSystemFont, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif; }
</style>
</head>
<body>
<main>
${snippet}
</main>
</body>
</html>`;
}
