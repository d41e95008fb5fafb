import type { Language } from '../../contract/enums.js';
import { countries } from './countries.js';
import { html, type SafeHtml } from './html.js';
import { MESSAGES, type MessageKey } from './messages.js';

export type FieldErrors = Record<string, MessageKey>;

export interface FieldSpec {
  name: string;
  label: MessageKey;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  inputmode?: string;
  hint?: string;
}

/** A labelled input; an error is announced through aria-invalid and aria-describedby. */
export function field(
  spec: FieldSpec,
  lang: Language,
  values: URLSearchParams,
  errors: FieldErrors,
): SafeHtml {
  const texts = MESSAGES[lang];
  const id = `f-${spec.name}`;
  const error = errors[spec.name];
  const described = [error ? `${id}-error` : '', spec.hint ? `${id}-hint` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for="${id}">${texts[spec.label]}</label>
    <input
      id="${id}"
      name="${spec.name}"
      type="${spec.type ?? 'text'}"
      value="${values.get(spec.name) ?? ''}"
      ${
        spec.autocomplete ? html` autocomplete="${spec.autocomplete}"` : ''
      }${spec.inputmode ? html` inputmode="${spec.inputmode}"` : ''}${spec.required ? html` required` : ''}${
        error ? html` aria-invalid="true"` : ''
      }${described ? html` aria-describedby="${described}"` : ''}
    />
    ${spec.hint ? html`<p class="hint" id="${id}-hint">${spec.hint}</p>` : ''}
    ${error ? html`<p class="error-text" id="${id}-error">${texts[error]}</p>` : ''}
  </div>`;
}

/**
 * The billing address's country: a list of names in the page's language that posts the ISO code
 * ("France" → FR), with an empty first choice, since the address is optional. A code stored
 * earlier that the list lacks stays selectable, so that saving the form does not drop it.
 */
export function countryField(
  lang: Language,
  values: URLSearchParams,
  errors: FieldErrors,
): SafeHtml {
  const texts = MESSAGES[lang];
  const current = (values.get('country') ?? '').toUpperCase();
  const list = countries(lang);
  const options =
    current && !list.some((c) => c.code === current)
      ? [{ code: current, name: current }, ...list]
      : list;
  const error = errors.country;
  return html`<div class="field">
    <label for="f-country">${texts.country}</label>
    <select
      id="f-country"
      name="country"
      autocomplete="country"
      ${error ? html` aria-invalid="true" aria-describedby="f-country-error"` : ''}
    >
      <option value="">${texts.noCountry}</option>
      ${options.map(
        (c) =>
          html`<option value="${c.code}" ${c.code === current ? html` selected` : ''}>
            ${c.name}
          </option>`,
      )}
    </select>
    ${error ? html`<p class="error-text" id="f-country-error">${texts[error]}</p>` : ''}
  </div>`;
}

/** Summary of the errors at the top of a form, focused on load so screen readers announce it. */
export function errorSummary(lang: Language, errors: FieldErrors, message?: string): SafeHtml {
  const keys = Object.keys(errors);
  if (keys.length === 0 && !message) return html``;
  const texts = MESSAGES[lang];
  return html`<div class="alert error" role="alert" tabindex="-1" data-focus>
    <p><strong>${message ?? texts.fixErrors}</strong></p>
    ${
      keys.length > 0
        ? html`<ul>
            ${keys.map((k) => html`<li><a href="#f-${k}">${texts[errors[k] as MessageKey]}</a></li>`)}
          </ul>`
        : ''
    }
  </div>`;
}

export function cardFields(lang: Language, values: URLSearchParams, errors: FieldErrors): SafeHtml {
  const texts = MESSAGES[lang];
  return html`<fieldset>
    <legend>${texts.card}</legend>
    ${field({ name: 'cardHolder', label: 'cardHolder', autocomplete: 'cc-name', required: true }, lang, values, errors)}
    ${field(
      {
        name: 'cardNumber',
        label: 'cardNumber',
        autocomplete: 'cc-number',
        inputmode: 'numeric',
        required: true,
        hint: texts.cardHint,
      },
      lang,
      values,
      errors,
    )}
    <div class="row">
      ${field({ name: 'cardExpiry', label: 'cardExpiry', autocomplete: 'cc-exp', required: true }, lang, values, errors)}
      ${field({ name: 'cardCvc', label: 'cardCvc', autocomplete: 'cc-csc', inputmode: 'numeric', required: true }, lang, values, errors)}
    </div>
  </fieldset>`;
}

const DECLINED = new Set(['4000000000000002']);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardCheck {
  errors: FieldErrors;
  declined: boolean;
  label: string;
}

/** Validates the card fields of a form against the sandbox clock; nothing is stored. */
export function checkCard(form: URLSearchParams, nowMs: number): CardCheck {
  const errors: FieldErrors = {};
  const holder = (form.get('cardHolder') ?? '').trim();
  const number = (form.get('cardNumber') ?? '').replace(/[\s-]/g, '');
  const expiry = (form.get('cardExpiry') ?? '').replace(/\s/g, '');
  const cvc = (form.get('cardCvc') ?? '').trim();
  if (!holder) errors.cardHolder = 'required';
  if (!number) errors.cardNumber = 'required';
  else if (!/^\d{12,19}$/.test(number) || !luhn(number)) errors.cardNumber = 'invalidCard';
  const match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(expiry);
  if (!expiry) errors.cardExpiry = 'required';
  else if (!match) errors.cardExpiry = 'invalidExpiry';
  else {
    const month = Number(match[1]);
    const year = Number((match[2] as string).length === 2 ? `20${match[2]}` : match[2]);
    const endOfMonth = Date.UTC(year, month, 1);
    if (month < 1 || month > 12 || endOfMonth <= nowMs) errors.cardExpiry = 'invalidExpiry';
  }
  if (!cvc) errors.cardCvc = 'required';
  else if (!/^\d{3,4}$/.test(cvc)) errors.cardCvc = 'invalidCvc';
  const brand = number.startsWith('4')
    ? 'Visa'
    : number.startsWith('5')
      ? 'Mastercard'
      : number.startsWith('3')
        ? 'Amex'
        : 'Card';
  return {
    errors,
    declined: Object.keys(errors).length === 0 && DECLINED.has(number),
    label: `${brand} •••• ${number.slice(-4)}`,
  };
}
