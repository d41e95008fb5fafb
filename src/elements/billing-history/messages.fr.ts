import type { Translation } from '../../client/i18n.js';
import type { historyTexts } from './messages.js';

// The French of <billing-history>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'history.caption': 'Factures',
  'history.column.date': 'Date',
  'history.column.number': 'Numéro',
  'history.column.amount': 'Montant',
  'history.column.status': 'État',
  'history.column.actions': 'Actions',
  'history.status.paid': 'Payée',
  'history.status.due': 'À payer',
  'history.status.overdue': 'En retard',
  'history.status.credit-note': 'Avoir',
  'history.status.cancelled': 'Annulée',
  'history.status.other': 'En cours de traitement',
  'history.when.paid': 'le {date}',
  'history.when.due': 'avant le {date}',
  'history.when.overdue': 'depuis le {date}',
  'history.tax': 'dont {tax}\u00a0de\u00a0taxes',
  'history.pay': 'Payer {amount}',
  'history.pay.label': 'Payer {amount} pour la facture {number}',
  'history.view': 'Voir',
  'history.view.label': 'Voir la facture {number} (nouvel onglet)',
  'history.view.credit-note.label': 'Voir l’avoir {number} (nouvel onglet)',
  'history.more.one': 'Afficher 1 facture de plus',
  'history.more.other': 'Afficher {count} factures de plus',
  'history.shown': '{shown} factures sur {total} affichées',
  'history.shown.one': '1 facture',
  'history.empty': 'Aucune facture pour le moment. Chaque facture apparaîtra ici dès son émission.',
  'history.signed-out': 'Connectez-vous pour voir vos factures.',
  'history.error': 'Vos factures n’ont pas pu être chargées.',
  'history.suspended':
    'Votre abonnement est suspendu car des factures sont en retard\u00a0: payez-les, puis réactivez-le.',
  'history.suspended-restartable':
    'Votre abonnement est suspendu. Vous pouvez le réactiver dès maintenant\u202f; ce qui reste en retard est listé ci-dessous.',
  'history.paid-now': 'La facture {number} est payée.',
} satisfies Translation<typeof historyTexts>;
