// The demo's smoke path in WebKit (engine-smoke.ts).
import { engineSmoke } from './engine-smoke.js';

engineSmoke('webkit');
