// One calm stylesheet for every hosted page: system font, one accent, a 4 px rhythm, visible focus.
export const HOSTED_CSS = `
:root {
  --accent: #3b5bdb; --accent-ink: #fff; --ink: #1f2430; --muted: #5b6275; --line: #e3e6ee;
  --surface: #fff; --page: #f7f8fb; --ok: #1d6a2f; --warn: #8a4300; --bad: #b02525; --radius: 8px;
  color-scheme: light;
}
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
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 8px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8125rem; font-weight: 600; color: var(--muted); }
tbody th, tfoot th { font-size: 1rem; color: var(--ink); }
caption { text-align: left; font-weight: 600; padding-bottom: 8px; }
ul.plain { list-style: none; padding: 0; margin: 0 0 12px; }
ul.plain li { padding: 4px 0; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #eef1fb; color: #2c44a8; }
.badge.ok { background: #e9f6ec; color: var(--ok); }
.badge.warn { background: #fff3e3; color: var(--warn); }
.badge.bad { background: #fdecec; color: var(--bad); }
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
input, select { font: inherit; width: 100%; padding: 8px 12px; border: 1px solid #c5cad6; border-radius: var(--radius); background: #fff; color: var(--ink); }
input[aria-invalid="true"] { border-color: var(--bad); }
.row { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); }
fieldset { border: 1px solid var(--line); border-radius: var(--radius); padding: 16px; margin: 0 0 16px; }
legend { font-weight: 600; padding: 0 4px; }
.check { display: flex; gap: 8px; align-items: center; font-weight: 400; }
.check input { width: auto; }
.error-text { color: var(--bad); font-size: .875rem; margin-top: 4px; }
.alert { border-radius: var(--radius); padding: 12px 16px; margin-bottom: 16px; border: 1px solid; }
.alert.error { background: #fdecec; border-color: #f3b4b4; color: #7d1a1a; }
.alert.success { background: #e9f6ec; border-color: #b2dfbc; color: #1d5e2c; }
.alert.info { background: #eef1fb; border-color: #c9d3f5; color: #253a8a; }
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
/* Paying with the saved card needs no card fields (no script: :has). */
.pay-form:has(input[name="method"][value="saved"]:checked) .new-card { display: none; }
`;
