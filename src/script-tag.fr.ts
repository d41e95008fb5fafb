// The French file of the script-tag build (dist/billing-elements.fr.js): every element's French
// texts in one module, which the script-tag file loads from beside itself when a page first
// shows French (src/script-tag-translations.ts). A module of data alone: no import at run time.
import shared from './client/shared-texts.fr.js';
import history from './elements/billing-history/messages.fr.js';
import portal from './elements/billing-portal/messages.fr.js';
import buy from './elements/buy-feature/messages.fr.js';
import gate from './elements/feature-gate/messages.fr.js';
import plan from './elements/plan-picker/messages.fr.js';
import meter from './elements/usage-meter/messages.fr.js';
import overrun from './elements/usage-meter/overrun-messages.fr.js';

export default { ...shared, ...meter, ...overrun, ...buy, ...portal, ...plan, ...gate, ...history };
