// Loaded by frame.html: another page (tab) of the same app, with its own runtime instance.
import '../../src/define.js';
import * as billing from '../../src/index.js';

declare global {
  interface Window {
    billing?: typeof billing;
  }
}

window.billing = billing;
window.dispatchEvent(new Event('billing-frame-ready'));
