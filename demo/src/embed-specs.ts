// What the snippet builder offers for each element: the attributes a site owner sets.

/** Which of the catalogue's features a feature list offers (metered first, or on/off first). */
export type FeatureChoice = 'metered' | 'buyable' | 'on-off';

export interface AttributeSpec {
  name: string;
  label: string;
  value: string;
  /** A feature list, filled from the catalogue's features (their names, not their keys). */
  features?: FeatureChoice;
  /**
   * Filled in from the chosen feature's name in the catalogue, in the snippet's language (the
   * name an element shows while the plan lacks the feature), until someone types their own.
   */
  fromFeature?: 'title' | 'unit';
  type?: 'text' | 'number';
  min?: number;
  max?: number;
  options?: { value: string; label: string }[];
  hint?: string;
  /** The element's default: left out of the snippet. */
  omitWhen?: string;
}

export interface ElementSpec {
  tag:
    | 'usage-meter'
    | 'buy-feature'
    | 'billing-portal'
    | 'plan-picker'
    | 'feature-gate'
    | 'billing-history';
  attributes: AttributeSpec[];
  /** What goes between the tags (the gated part of a page), if anything. */
  content?: string;
  /** Room the preview needs at least (the buy dialog opens inside it). */
  previewHeight: number;
}

// The lists until the catalogue answers (or if it cannot): the sandbox's features.
const METERED = [
  { value: 'seats', label: 'Seats' },
  { value: 'projects', label: 'Projects' },
  { value: 'api-calls', label: 'API calls' },
];
const ON_OFF = [
  { value: 'sso', label: 'Single sign-on' },
  { value: 'priority-support', label: 'Priority support' },
];

/** The feature name field of a meter or a gate. */
const FEATURE_NAME: AttributeSpec = {
  name: 'label',
  label: 'Feature name',
  value: '',
  fromFeature: 'title',
  hint: 'From the catalogue, in the snippet’s language: shown as “Single sign-on: not included in your plan” when the plan lacks it.',
};

export const ELEMENT_SPECS: ElementSpec[] = [
  {
    tag: 'usage-meter',
    previewHeight: 140,
    attributes: [
      {
        name: 'feature',
        label: 'Feature',
        value: 'seats',
        options: [...METERED, ...ON_OFF],
        features: 'metered',
      },
      FEATURE_NAME,
    ],
  },
  {
    tag: 'buy-feature',
    previewHeight: 420,
    attributes: [
      {
        name: 'feature',
        label: 'Feature',
        value: 'seats',
        options: METERED.slice(0, 2),
        features: 'buyable',
      },
      {
        name: 'label',
        label: 'Unit name',
        value: 'seats',
        fromFeature: 'unit',
        hint: 'Used in sentences such as “You now have 7 seats”.',
      },
      {
        name: 'quantity',
        label: 'Starting quantity',
        value: '1',
        type: 'number',
        min: 1,
        omitWhen: '1',
      },
    ],
  },
  {
    tag: 'billing-portal',
    previewHeight: 520,
    attributes: [
      {
        name: 'page',
        label: 'Opens on',
        value: 'home',
        options: [
          { value: 'home', label: 'Portal home' },
          { value: 'offers', label: 'Plans' },
          { value: 'change-plan', label: 'Change plan' },
          { value: 'register', label: 'Payment method' },
        ],
      },
    ],
  },
  {
    tag: 'plan-picker',
    previewHeight: 560,
    attributes: [
      {
        name: 'contact-href',
        label: 'Contact for plans on request',
        value: '',
        hint: 'A mailto: or a page of yours, for plans sold on request.',
      },
    ],
  },
  {
    tag: 'feature-gate',
    previewHeight: 140,
    content: '<p>Single sign-on is set up for your team.</p>',
    attributes: [
      {
        name: 'feature',
        label: 'Feature',
        value: 'sso',
        options: [...ON_OFF, ...METERED],
        features: 'on-off',
      },
      FEATURE_NAME,
    ],
  },
  {
    tag: 'billing-history',
    previewHeight: 420,
    attributes: [
      {
        name: 'page-size',
        label: 'Invoices per page',
        value: '10',
        type: 'number',
        min: 1,
        max: 50,
        omitWhen: '10',
        hint: 'Show more adds as many.',
      },
    ],
  },
];
