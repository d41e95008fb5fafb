// The demo app's own words that its scripts write into the page, in the page's language (the
// server writes the rest of the page's words, demo/texts.ts).

const en = {
  'status.active': 'Active',
  'status.suspended': 'Suspended',
  'status.pending': 'Waiting to be completed',
  'status.ended': 'Ended',
  'status.none': 'No plan yet',
  'status.other': 'Inactive',
  'fact.plan': 'Plan',
  'fact.changes': 'Changes to {title} on',
  'fact.renews': 'Renews on',
  'fact.ends': 'Period ends',
  'fact.due': 'Due now',
  'fact.due-by': 'Due by {date}',
  'fact.to-pay': 'To pay',
  'fact.nothing': 'Nothing',
  'action.change-plan': 'Change plan',
  'action.restart': 'Restart subscription',
  'action.complete': 'Complete your subscription',
  'action.choose': 'Choose a plan',
  'notice.card':
    'Your subscription is suspended because your payment method no longer works: update it first, then restart your subscription.',
  'error.subscription':
    'The subscription could not be loaded ({reason}). Reload the page to try again.',
  period: 'Billing period {start} – {end}',
  // The seats card's note on the billing page: the customer's own figures (demo/src/seats-note.ts).
  'seats.have.none': 'You have no seats yet.',
  'seats.have.one': 'You have 1 seat.',
  'seats.have': 'You have {count} seats.',
  'seats.have.all-used.one': 'You have 1 seat, in use.',
  'seats.have.all-used': 'You have {count} seats, all in use.',
  'seats.have.used': 'You have {count} seats, {used} in use.',
  'seats.have.none-used.one': 'You have 1 seat, not in use.',
  'seats.have.none-used': 'You have {count} seats, none in use.',
  // What the plan includes, after the sentence of the seats the customer has (`seats.have.*`):
  // "You have 2 seats, all in use. Your plan includes 5: 3 more cost nothing."
  'seats.of.free.one': 'Your plan includes {included}: 1 more costs nothing.',
  'seats.of.free': 'Your plan includes {included}: {free} more cost nothing.',
  'seats.of.none':
    'Your plan includes {included} seats and you have none yet: up to {included} cost nothing.',
  'seats.of.full':
    'Your plan includes {included}: any more are charged after you confirm their price.',
  'seats.included.extra.one': 'Your plan includes {included}; the extra one is billed each month.',
  'seats.included.extra': 'Your plan includes {included}; the {extra} extra are billed each month.',
  'seats.unlimited': 'Your plan includes unlimited seats: more cost nothing.',
  'seats.remove.in-use': 'You can remove up to {count}, down to the {floor} in use.',
  'seats.remove.included': 'You can remove up to {count}, down to the {floor} your plan includes.',
  'seats.remove.refund':
    'What was billed this month is not refunded, and the next month costs less.',
  'seats.remove.all-used': 'None can be removed while all are in use.',
  'seats.confirm': 'You see what changes before you confirm.',
  'seats.suspended': 'Seats can be changed again once your subscription is active.',
  'seats.pending': 'Your plan includes {included} seats once you complete your subscription.',
  'seats.pending.unlimited':
    'Your plan includes unlimited seats once you complete your subscription.',
  'seats.pending.other': 'Seats come with your plan once you complete your subscription.',
  'seats.no-plan': 'Seats come with a plan, and you have none yet.',
  // The overview's "Add seats" card.
  'seats.invite': 'Invite more teammates.',
  'seats.price-first': 'You see and confirm the price before anything is charged.',
};

export type WordKey = keyof typeof en;

const fr: Record<WordKey, string> = {
  'status.active': 'Actif',
  'status.suspended': 'Suspendu',
  'status.pending': 'En attente de finalisation',
  'status.ended': 'Terminé',
  'status.none': 'Pas encore d’offre',
  'status.other': 'Inactif',
  'fact.plan': 'Offre',
  'fact.changes': 'Passe à {title} le',
  'fact.renews': 'Renouvellement le',
  'fact.ends': 'Fin de la période',
  'fact.due': 'À payer maintenant',
  'fact.due-by': 'À payer avant le {date}',
  'fact.to-pay': 'À payer',
  'fact.nothing': 'Rien',
  'action.change-plan': 'Changer d’offre',
  'action.restart': 'Réactiver l’abonnement',
  'action.complete': 'Finaliser votre abonnement',
  'action.choose': 'Choisir une offre',
  'notice.card':
    'Votre abonnement est suspendu car votre moyen de paiement ne fonctionne plus\u00a0: mettez-le à jour d’abord, puis réactivez votre abonnement.',
  'error.subscription':
    'L’abonnement n’a pas pu être chargé ({reason}). Rechargez la page pour réessayer.',
  period: 'Période de facturation {start} – {end}',
  'seats.have.none': 'Vous n’avez encore aucun siège.',
  'seats.have.one': 'Vous avez 1 siège.',
  'seats.have': 'Vous avez {count} sièges.',
  'seats.have.all-used.one': 'Vous avez 1 siège, utilisé.',
  'seats.have.all-used': 'Vous avez {count} sièges, tous utilisés.',
  'seats.have.used': 'Vous avez {count} sièges, dont {used} utilisés.',
  'seats.have.none-used.one': 'Vous avez 1 siège, inutilisé.',
  'seats.have.none-used': 'Vous avez {count} sièges, aucun utilisé.',
  'seats.of.free.one': 'Votre offre en inclut {included}\u00a0: 1 de plus ne coûte rien.',
  'seats.of.free': 'Votre offre en inclut {included}\u00a0: {free} de plus ne coûtent rien.',
  'seats.of.none':
    'Votre offre inclut {included} sièges et vous n’en avez encore aucun\u00a0: jusqu’à {included} ne coûtent rien.',
  'seats.of.full':
    'Votre offre en inclut {included}\u00a0: au-delà, chaque siège est facturé après confirmation de son prix.',
  'seats.included.extra.one':
    'Votre offre en inclut {included}\u202f; celui en supplément est facturé chaque mois.',
  'seats.included.extra':
    'Votre offre en inclut {included}\u202f; les {extra} en supplément sont facturés chaque mois.',
  'seats.unlimited': 'Votre offre inclut des sièges illimités\u00a0: en ajouter ne coûte rien.',
  'seats.remove.in-use':
    'Vous pouvez en retirer jusqu’à {count}, sans descendre sous les {floor} utilisés.',
  'seats.remove.included':
    'Vous pouvez en retirer jusqu’à {count}, sans descendre sous les {floor} inclus dans votre offre.',
  'seats.remove.refund':
    'Ce qui a été facturé ce mois-ci n’est pas remboursé, et le mois suivant coûte moins cher.',
  'seats.remove.all-used': 'Aucun ne peut être retiré tant que tous sont utilisés.',
  'seats.confirm': 'Vous voyez ce qui change avant de confirmer.',
  'seats.suspended':
    'Les sièges pourront de nouveau être modifiés une fois votre abonnement actif.',
  'seats.pending': 'Votre offre inclura {included} sièges une fois votre abonnement finalisé.',
  'seats.pending.unlimited':
    'Votre offre inclura des sièges illimités une fois votre abonnement finalisé.',
  'seats.pending.other':
    'Les sièges viendront avec votre offre une fois votre abonnement finalisé.',
  'seats.no-plan': 'Les sièges viennent avec une offre, et vous n’en avez pas encore.',
  'seats.invite': 'Invitez d’autres membres.',
  'seats.price-first': 'Vous voyez et confirmez le prix avant tout prélèvement.',
};

/**
 * A text of the demo in the page's language (read at each call: a script that writes it again
 * after a `lang` change writes the new language), its `{name}` slots filled.
 */
export function word(key: WordKey, values: Record<string, string> = {}): string {
  const table = document.documentElement.lang === 'fr' ? fr : en;
  return table[key].replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}

/** Keys that have a singular beside them (`key.one`). */
type Counted<K extends string> = K extends `${infer Base}.one` ? Base : never;

/** `word(key)`, or its singular `key.one` when `count` is 1. */
export function counted(
  key: Counted<WordKey>,
  count: number,
  values: Record<string, string> = {},
): string {
  return word(count === 1 ? (`${key}.one` as WordKey) : key, values);
}
