// One calm stylesheet for every hosted page: system font, one accent, a 4 px rhythm, visible
// focus. Light or dark as the embedding page asks (`data-theme` on the root), else as the system
// prefers; every colour is a variable, so the accent the page gives (look.ts) drives buttons,
// links and focus, and tinted boxes mix their colour into the surface in either scheme.

const LIGHT = `
  --accent: #3b5bdb; --accent-ink: #fff; --ink: #1f2430; --muted: #5b6275; --line: #e3e6ee;
  --field: #c5cad6; --surface: #fff; --page: #f7f8fb; --ok: #1d6a2f; --warn: #8a4300;
  --bad: #b02525; --info: #253a8a; color-scheme: light;`;

const DARK = `
  --accent: #8ea2f2; --accent-ink: #111; --ink: #e7e9ef; --muted: #a4abbb; --line: #2d3240;
  --field: #4a5164; --surface: #181b22; --page: #111318; --ok: #7ad492; --warn: #f5b74f;
  --bad: #ff8a80; --info: #a9bbf7; color-scheme: dark;`;

export const HOSTED_CSS = `
:root { ${LIGHT} --radius: 8px; }
:root[data-theme="dark"] { ${DARK} }
@media (prefers-color-scheme: dark) { :root:not([data-theme]) { ${DARK} } }
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--page); }
body { margin: 0; }
main { max-width: 760px; margin: 0 auto; padding: 24px 20px 32px; }
header.brand { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; margin-bottom: 20px; color: var(--muted); font-size: .875rem; }
header.brand strong { color: var(--ink); font-weight: 600; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 16px; }
h1 + .lead { margin-top: -12px; }
h2 { font-size: 1.0625rem; margin: 0 0 12px; }
p { margin: 0 0 12px; }
.lead { color: var(--muted); margin-bottom: 20px; }
.card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 20px; margin-bottom: 16px; }
.grid { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); }
.price { font-size: 1.75rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.price small { font-size: .875rem; font-weight: 400; color: var(--muted); }
.num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
/* "1,200 of 10,000 used" wraps between words on a phone; each number stays whole. */
.features .num { white-space: normal; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 8px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8125rem; font-weight: 600; color: var(--muted); }
tbody th, tfoot th { font-size: 1rem; color: var(--ink); }
caption { text-align: left; font-weight: 600; padding-bottom: 8px; }
ul.plain { list-style: none; padding: 0; margin: 0 0 12px; }
ul.plain li { padding: 4px 0; }
.badge { display: inline-block; max-width: 100%; font-size: .75rem; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: color-mix(in srgb, var(--info) 14%, var(--surface)); color: var(--info); }
.badge.ok { background: color-mix(in srgb, var(--ok) 14%, var(--surface)); color: var(--ok); }
.badge.warn { background: color-mix(in srgb, var(--warn) 14%, var(--surface)); color: var(--warn); }
.badge.bad { background: color-mix(in srgb, var(--bad) 14%, var(--surface)); color: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 16px; align-items: center; }
.button, button { font: inherit; font-weight: 600; display: inline-block; border-radius: var(--radius); padding: 8px 16px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); text-decoration: none; cursor: pointer; }
.button.quiet, button.quiet { background: transparent; color: var(--accent); }
button[disabled] { opacity: .5; cursor: not-allowed; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, .button:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px;
}
form .field { margin-bottom: 12px; }
label { display: block; font-weight: 600; font-size: .875rem; margin-bottom: 4px; }
input, select { font: inherit; width: 100%; padding: 8px 12px; border: 1px solid var(--field); border-radius: var(--radius); background: var(--surface); color: var(--ink); }
input[aria-invalid="true"] { border-color: var(--bad); }
.row { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); }
fieldset { border: 1px solid var(--line); border-radius: var(--radius); padding: 16px; margin: 0 0 16px; }
legend { font-weight: 600; padding: 0 4px; }
.check { display: flex; gap: 8px; align-items: center; font-weight: 400; }
.check input { width: auto; }
.error-text { color: var(--bad); font-size: .875rem; margin-top: 4px; }
.alert { border-radius: var(--radius); padding: 12px 16px; margin-bottom: 16px; border: 1px solid; }
.alert > :last-child { margin-bottom: 0; }
.alert.error { background: color-mix(in srgb, var(--bad) 10%, var(--surface)); border-color: color-mix(in srgb, var(--bad) 40%, var(--surface)); color: var(--bad); }
.alert.success { background: color-mix(in srgb, var(--ok) 10%, var(--surface)); border-color: color-mix(in srgb, var(--ok) 40%, var(--surface)); color: var(--ok); }
.alert.info { background: color-mix(in srgb, var(--info) 10%, var(--surface)); border-color: color-mix(in srgb, var(--info) 35%, var(--surface)); color: var(--info); }
.hint { color: var(--muted); font-size: .875rem; }
.current { outline: 2px solid var(--accent); outline-offset: -2px; }
nav.sub { display: flex; gap: 16px; margin-bottom: 16px; font-size: .9375rem; }
@media (prefers-reduced-motion: no-preference) { .button, button { transition: background-color .15s, color .15s; } }
@media print { html { background: #fff; } .card { border: 0; } .actions, nav.sub { display: none; } }
`;

export const HOSTED_CSS_EXTRA = `
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
dl.card { display: grid; gap: 8px 16px; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); }
dl dt { font-size: .8125rem; color: var(--muted); }
dl dd { margin: 0; }
dl .price { font-size: 1.25rem; }
td form { margin: 0; }
/* A badge's words stay together, unless it is wider than its line (a phone, a long state). */
.badge { white-space: nowrap; }
@media (max-width: 520px) { .badge { white-space: normal; } }
/* What a form needs least, folded beneath what it is for (the contact and address under a card). */
details.more { margin: 0 0 16px; padding: 12px 16px; border: 1px solid var(--line); border-radius: var(--radius); }
details.more > summary { cursor: pointer; font-weight: 600; }
details.more[open] > summary { margin-bottom: 12px; }
/* Inside the fold, its groups are named by their legends alone: no third nested box. */
details.more fieldset { border: 0; padding: 0; }
details.more legend { padding: 0; margin-bottom: 8px; }
details.more fieldset:last-child { margin-bottom: 0; }
summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
/* Paying with the saved card needs no card fields (no script: :has). */
.pay-form:has(input[name="method"][value="saved"]:checked) .new-card { display: none; }
/* The confirmation of a plan switch: the price in large type, what follows beneath. */
.confirm .price { margin-bottom: 4px; }
/* On a phone, a table of rows becomes a list of cards: each cell on its own line, named by its
   column (data-label), nothing cut off at the right. */
@media (max-width: 520px) {
  main { padding: 16px 12px 24px; }
  /* In a frame the embedding page gives the margins: the cards take nearly the frame's width,
     keeping room for a focus ring (3px, 2px away). */
  :root[data-embedded] main { padding-inline: 6px; }
  .card { padding: 16px 12px; }
  /* A block table's caption would shrink to its longest word ("Invoices / to pay"). */
  table.stack caption { display: block; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack, table.stack tbody, table.stack tr, table.stack th, table.stack td { display: block; width: 100%; }
  table.stack tr { padding: 8px 0; border-bottom: 1px solid var(--line); }
  table.stack th, table.stack td { border: 0; padding: 2px 0; text-align: left; white-space: normal; }
  table.stack td[data-label]:not(:empty)::before { content: attr(data-label) ": "; color: var(--muted); font-size: .8125rem; }
  table.stack tr.current { outline-offset: 2px; }
}
`;
