import './app.js';
import { getProxyClient, type Offer } from 'billing-elements';
import {
  ELEMENT_SPECS,
  type AttributeSpec,
  type ElementSpec,
  type FeatureChoice,
} from './embed-specs.js';
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
const tokenNote = document.querySelector<HTMLElement>('[data-token-note]')!;

endpointInput.value = `${location.origin}/billing`;
filesInput.value = location.origin;

type Lang = 'en' | 'fr';

/** A feature of the catalogue: its key, its kind, and its name in each language. */
interface CatalogueFeature {
  reference: string;
  type: string;
  names: Partial<Record<Lang, string>>;
}

/** The catalogue's features, in the order the plans list them; empty until it answers. */
let catalogue: CatalogueFeature[] = [];

/** The language the snippet's elements will speak: the one chosen, else this page's. */
function snippetLanguage(): Lang {
  const chosen = (form.elements.namedItem('lang') as HTMLSelectElement).value;
  const lang = chosen || document.documentElement.lang;
  return lang === 'fr' ? 'fr' : 'en';
}

/** Reads the visible features of every plan, in both languages, through the demo's proxy. */
async function loadCatalogue(): Promise<void> {
  const client = getProxyClient();
  const [en, fr] = await Promise.all(
    (['en', 'fr'] as const).map((lang) => client.getOffers(undefined, lang).then((r) => r.offers)),
  );
  const byReference = new Map<string, CatalogueFeature>();
  const read = (offers: Offer[], lang: Lang) => {
    for (const feature of offers.flatMap((offer) => offer.Features ?? [])) {
      if (feature.IsVisible === false) continue;
      const known = byReference.get(feature.ReferenceFeature) ?? {
        reference: feature.ReferenceFeature,
        type: feature.TypeFeature,
        names: {},
      };
      known.names[lang] ??= feature.TitleLocalized;
      byReference.set(feature.ReferenceFeature, known);
    }
  };
  read(en ?? [], 'en');
  read(fr ?? [], 'fr');
  catalogue = [...byReference.values()];
}

const METERED_TYPES = new Set(['Limitation', 'Consumption']);

/** The catalogue's features a list offers, as options named in this page's language. */
function featureOptions(choice: FeatureChoice): { value: string; label: string }[] {
  const lang: Lang = document.documentElement.lang === 'fr' ? 'fr' : 'en';
  const option = (feature: CatalogueFeature) => ({
    value: feature.reference,
    label: feature.names[lang] ?? feature.names.en ?? feature.reference,
  });
  const metered = catalogue.filter((feature) => METERED_TYPES.has(feature.type));
  const onOff = catalogue.filter((feature) => feature.type === 'OnOff');
  if (choice === 'buyable')
    return catalogue.filter((feature) => feature.type === 'Limitation').map(option);
  return (choice === 'on-off' ? [...onOff, ...metered] : [...metered, ...onOff]).map(option);
}

/** A feature's name in the snippet's language, as a label or (lower case) a unit word. */
function nameFor(reference: string, kind: 'title' | 'unit'): string {
  const feature = catalogue.find((item) => item.reference === reference);
  const name = feature?.names[snippetLanguage()] ?? feature?.names.en ?? '';
  // "Seats" → "seats", but "API calls" keeps its capitals.
  if (kind === 'unit' && /^\p{Lu}\p{Ll}/u.test(name)) return name[0]!.toLowerCase() + name.slice(1);
  return name;
}

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
  const options =
    attribute.features && catalogue.length > 0
      ? featureOptions(attribute.features)
      : attribute.options;
  if (options) {
    control = document.createElement('select');
    for (const option of options) {
      control.append(
        new Option(option.label, option.value, false, option.value === attribute.value),
      );
    }
  } else {
    control = document.createElement('input');
    control.type = attribute.type ?? 'text';
    control.value = attribute.value;
    if (attribute.min !== undefined) control.min = String(attribute.min);
    if (attribute.max !== undefined) control.max = String(attribute.max);
    control.autocomplete = 'off';
    // Filled in from the feature until someone types their own.
    if (attribute.fromFeature) {
      control.dataset.fromFeature = attribute.fromFeature;
      control.addEventListener('input', () => {
        (control as HTMLInputElement).dataset.edited = '';
      });
    }
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
  fillFromFeature();
}

/** The name fields that follow the chosen feature, in the snippet's language. */
function fillFromFeature(): void {
  const feature = (form.elements.namedItem('attr:feature') as HTMLSelectElement | null)?.value;
  if (!feature || catalogue.length === 0) return;
  for (const input of attributeFields.querySelectorAll<HTMLInputElement>('[data-from-feature]')) {
    if (input.dataset.edited !== undefined) continue;
    const name = nameFor(feature, input.dataset.fromFeature === 'unit' ? 'unit' : 'title');
    if (name) input.value = name;
  }
}

/**
 * The address a snippet can use: an http(s) URL, or a path on the site that pastes it. Anything
 * else is refused with a sentence under its field, and the snippet and preview stay as they
 * were until it is fixed.
 */
function checkAddress(input: HTMLInputElement): boolean {
  const value = input.value.trim();
  let valid = value.startsWith('/') && !value.startsWith('//');
  if (!valid) {
    try {
      const url = new URL(value);
      valid = url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      valid = false;
    }
  }
  const error = document.getElementById(`${input.id}-error`)!;
  error.hidden = valid;
  if (valid) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
  return valid;
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
  const identity = (form.elements.namedItem('identity') as RadioNodeList).value;
  return {
    identity: identity === 'token' ? 'token' : 'cookie',
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
/** What the preview runs: the snippet, with this session's cookie where it asks for a token. */
let lastPreview = '';
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
  if (lastPreview === previewed) return;
  previewed = lastPreview;
  const spec = selectedSpec();
  preview.style.height = `${spec.previewHeight}px`;
  preview.addEventListener('load', () => fitPreview(spec.previewHeight), { once: true });
  preview.srcdoc = previewDocument(lastPreview, document.documentElement.lang || 'en');
}

/** The code follows every keystroke; the preview waits for a pause in typing. */
function update(immediate = false): void {
  const valid = [endpointInput, filesInput].map(checkAddress).every(Boolean);
  copyButton.setAttribute('aria-disabled', String(!valid));
  if (!valid) {
    clearTimeout(previewTimer);
    copyStatus.textContent =
      'Fix the address marked above: the snippet below is the last valid one.';
    return;
  }
  const input = currentInput();
  const snippet = buildSnippet(input);
  if (snippet === lastSnippet) return;
  lastSnippet = snippet;
  // The token line is the site's to write: the preview, on this origin, uses the session.
  lastPreview = buildSnippet({ ...input, identity: 'cookie' });
  tokenNote.hidden = input.identity !== 'token';
  code.innerHTML = highlight(snippet);
  copyStatus.textContent = '';
  clearTimeout(previewTimer);
  if (immediate) showPreview();
  else previewTimer = setTimeout(showPreview, 400);
}

async function copySnippet(): Promise<void> {
  if (copyButton.getAttribute('aria-disabled') === 'true') return;
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
  const { name } = event.target as HTMLInputElement;
  if (name === 'element') renderFields();
  else if (name === 'attr:feature' || name === 'lang') fillFromFeature();
  update(true);
});
form.addEventListener('input', () => update());
form.addEventListener('submit', (event) => event.preventDefault());
copyButton.addEventListener('click', () => void copySnippet());

renderFields();
update(true);
// The features' names come from the catalogue: the lists and name fields follow once it answers.
loadCatalogue().then(
  () => {
    const values = new Map(
      [...attributeFields.querySelectorAll<HTMLSelectElement>('select')].map((select) => [
        select.name,
        select.value,
      ]),
    );
    renderFields();
    for (const [name, value] of values) {
      const select = form.elements.namedItem(name) as HTMLSelectElement | null;
      if (select && [...select.options].some((option) => option.value === value))
        select.value = value;
    }
    fillFromFeature();
    update(true);
  },
  () => undefined,
);
