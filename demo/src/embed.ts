import './app.js';
import { ELEMENT_SPECS, type AttributeSpec, type ElementSpec } from './embed-specs.js';
import { buildSnippet, highlight, previewDocument, type SnippetInput } from './snippet.js';

// The snippet builder: pick an element and its attributes, see exactly the snippet running in
// an iframe (same origin, so it uses this session), copy it for a site builder's HTML block.

const form = document.querySelector<HTMLFormElement>('[data-builder]')!;
const attributeFields = document.querySelector<HTMLElement>('[data-attribute-fields]')!;
const preview = document.querySelector<HTMLIFrameElement>('[data-preview]')!;
const code = document.querySelector<HTMLElement>('[data-snippet]')!;
const copyButton = document.querySelector<HTMLButtonElement>('[data-copy]')!;
const copyStatus = document.querySelector<HTMLElement>('[data-copy-status]')!;
const endpointInput = form.elements.namedItem('endpoint') as HTMLInputElement;
const filesInput = form.elements.namedItem('filesUrl') as HTMLInputElement;

endpointInput.value = `${location.origin}/billing`;
filesInput.value = location.origin;

function selectedSpec(): ElementSpec {
  const tag = (form.elements.namedItem('element') as RadioNodeList).value;
  return ELEMENT_SPECS.find((spec) => spec.tag === tag) ?? ELEMENT_SPECS[0]!;
}

function fieldFor(spec: ElementSpec, attribute: AttributeSpec): HTMLElement {
  const id = `attr-${spec.tag}-${attribute.name}`;
  const field = document.createElement('div');
  field.className = 'field';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = attribute.label;
  field.append(label);
  let control: HTMLInputElement | HTMLSelectElement;
  if (attribute.options) {
    control = document.createElement('select');
    for (const option of attribute.options) {
      control.append(
        new Option(option.label, option.value, false, option.value === attribute.value),
      );
    }
  } else {
    control = document.createElement('input');
    control.type = attribute.type ?? 'text';
    control.value = attribute.value;
    if (attribute.min !== undefined) control.min = String(attribute.min);
    control.autocomplete = 'off';
  }
  control.id = id;
  control.name = `attr:${attribute.name}`;
  if (attribute.hint) {
    const hint = document.createElement('span');
    hint.className = 'hint';
    hint.id = `${id}-hint`;
    hint.textContent = attribute.hint;
    control.setAttribute('aria-describedby', hint.id);
    field.append(control, hint);
  } else {
    field.append(control);
  }
  return field;
}

function renderFields(): void {
  const spec = selectedSpec();
  attributeFields.replaceChildren(...spec.attributes.map((attribute) => fieldFor(spec, attribute)));
}

function currentInput(): SnippetInput {
  const spec = selectedSpec();
  const attributes: [string, string][] = [];
  for (const attribute of spec.attributes) {
    const control = form.elements.namedItem(`attr:${attribute.name}`) as HTMLInputElement | null;
    const value = control?.value.trim() ?? '';
    if (value !== '' && value !== attribute.omitWhen) attributes.push([attribute.name, value]);
  }
  const lang = (form.elements.namedItem('lang') as HTMLSelectElement).value;
  const accent = (form.elements.namedItem('accent') as HTMLInputElement).value;
  return {
    tag: spec.tag,
    attributes,
    endpoint: endpointInput.value.trim(),
    filesUrl: filesInput.value.trim(),
    ...(spec.content ? { content: spec.content } : {}),
    lang,
    accent,
  };
}

let lastSnippet = '';
let resizeObserver: ResizeObserver | undefined;

function fitPreview(minHeight: number): void {
  resizeObserver?.disconnect();
  const doc = preview.contentDocument;
  if (!doc?.documentElement) return;
  const fit = () => {
    preview.style.height = `${Math.max(minHeight, doc.documentElement.scrollHeight)}px`;
  };
  resizeObserver = new ResizeObserver(fit);
  resizeObserver.observe(doc.documentElement);
  fit();
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewed = '';

function showPreview(): void {
  if (lastSnippet === previewed) return;
  previewed = lastSnippet;
  const spec = selectedSpec();
  preview.style.height = `${spec.previewHeight}px`;
  preview.addEventListener('load', () => fitPreview(spec.previewHeight), { once: true });
  preview.srcdoc = previewDocument(lastSnippet, document.documentElement.lang || 'en');
}

/** The code follows every keystroke; the preview waits for a pause in typing. */
function update(immediate = false): void {
  const snippet = buildSnippet(currentInput());
  if (snippet === lastSnippet) return;
  lastSnippet = snippet;
  code.innerHTML = highlight(snippet);
  copyStatus.textContent = '';
  clearTimeout(previewTimer);
  if (immediate) showPreview();
  else previewTimer = setTimeout(showPreview, 400);
}

async function copySnippet(): Promise<void> {
  try {
    await navigator.clipboard.writeText(lastSnippet);
    copyStatus.textContent = 'Copied to the clipboard.';
  } catch {
    // Without clipboard access (an insecure origin, a denied permission), select it instead.
    const selection = getSelection();
    const range = document.createRange();
    range.selectNodeContents(code);
    selection?.removeAllRanges();
    selection?.addRange(range);
    copyStatus.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  }
}

form.addEventListener('change', (event) => {
  if ((event.target as HTMLInputElement).name === 'element') renderFields();
  update(true);
});
form.addEventListener('input', () => update());
form.addEventListener('submit', (event) => event.preventDefault());
copyButton.addEventListener('click', () => void copySnippet());

renderFields();
update(true);
