// The plans page: <plan-picker> does the work; the header's plan badge follows its changes.
import './app.js';
