// billing-elements/define: registers <usage-meter>, <buy-feature>, <billing-portal>,
// <plan-picker>, <feature-gate> and <billing-history>.
// Loading it twice is harmless: each define() is a no-op when its class already holds the tag.
import './elements/usage-meter/define.js';
import './elements/buy-feature/define.js';
import './elements/billing-portal/define.js';
import './elements/plan-picker/define.js';
import './elements/feature-gate/define.js';
import './elements/billing-history/define.js';

export * from './index.js';
