// The customer portal page: <billing-portal> shows the billing service's own portal home and
// follows the account's changes by itself; the header's plan badge follows them too.
import './app.js';
