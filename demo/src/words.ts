// The demo app's own words that its scripts write into the page, in the page's language (the
// server writes the rest of the page's words, demo/texts.ts).

const en = {
  'status.active': 'Active',
  'status.suspended': 'Suspended',
  'status.pending': 'Pending',
  'status.ended': 'Ended',
  'status.none': 'No plan',
  'status.other': 'Inactive',
  'fact.plan': 'Plan',
  'fact.no-plan': 'None yet',
  'fact.changes': 'Changes to {title} on',
  'fact.renews': 'Renews on',
  'fact.ends': 'Period ends',
  'fact.due': 'Due now',
  'action.change-plan': 'Change plan',
  'action.payment-method': 'Update payment method',
  'action.restart': 'Restart subscription',
  'action.complete': 'Complete your subscription',
  'action.choose': 'Choose a plan',
  'notice.card':
    'Your subscription is suspended because your payment method no longer works: update it first, then restart your subscription.',
  'error.subscription':
    'The subscription could not be loaded ({reason}). Reload the page to try again.',
  period: 'Billing period {start} – {end}',
};

type WordKey = keyof typeof en;

const fr: Record<WordKey, string> = {
  'status.active': 'Actif',
  'status.suspended': 'Suspendu',
  'status.pending': 'En attente',
  'status.ended': 'Terminé',
  'status.none': 'Sans offre',
  'status.other': 'Inactif',
  'fact.plan': 'Offre',
  'fact.no-plan': 'Aucune pour le moment',
  'fact.changes': 'Passe à {title} le',
  'fact.renews': 'Renouvellement le',
  'fact.ends': 'Fin de la période',
  'fact.due': 'À payer maintenant',
  'action.change-plan': 'Changer d’offre',
  'action.payment-method': 'Mettre à jour le moyen de paiement',
  'action.restart': 'Réactiver l’abonnement',
  'action.complete': 'Finaliser votre abonnement',
  'action.choose': 'Choisir une offre',
  'notice.card':
    'Votre abonnement est suspendu car votre moyen de paiement ne fonctionne plus\u00a0: mettez-le à jour d’abord, puis réactivez votre abonnement.',
  'error.subscription':
    'L’abonnement n’a pas pu être chargé ({reason}). Rechargez la page pour réessayer.',
  period: 'Période de facturation {start} – {end}',
};

/** A text of the demo in the page's language, its `{name}` slots filled. */
export function word(key: WordKey, values: Record<string, string> = {}): string {
  const table = document.documentElement.lang === 'fr' ? fr : en;
  return table[key].replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}
