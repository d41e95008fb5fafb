// The demo's smoke path in Firefox (engine-smoke.ts).
import { engineSmoke } from './engine-smoke.js';

engineSmoke('firefox');
