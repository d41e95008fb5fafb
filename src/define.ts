// billing-elements/define: registers <usage-meter>, <buy-feature> and <billing-portal>.
// Loading it twice is harmless: each define() is a no-op when its class already holds the tag.
import './elements/usage-meter/define.js';
import './elements/buy-feature/define.js';
import './elements/billing-portal/define.js';

export * from './index.js';
