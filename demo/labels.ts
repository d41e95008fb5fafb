import type { DemoLanguage } from './layout.js';

// The names the demo's pages give their billing elements (`label`, `label-one`), in the page's
// language: the elements speak French on a French page, and so do the names they show. The
// server writes them into the page; the page's script (demo/src/app.ts) writes them again when
// `<html lang>` changes in place.

export const FEATURE_LABELS: Record<DemoLanguage, Record<string, string>> = {
  en: {
    'label.seats': 'Seats',
    'label.seats.other': 'seats',
    'label.seats.one': 'seat',
    'label.projects': 'Projects',
    'label.api-calls': 'API calls',
    'label.sso': 'Single sign-on',
  },
  fr: {
    'label.seats': 'Sièges',
    'label.seats.other': 'sièges',
    'label.seats.one': 'siège',
    'label.projects': 'Projets',
    'label.api-calls': 'Appels API',
    'label.sso': 'Authentification unique',
  },
};
