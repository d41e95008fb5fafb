import express from 'express';
import { toExpressMiddleware } from 'billing-elements/server';
import { billing } from './billing.js';

const app = express();
app.use(toExpressMiddleware(billing));
// The built app (`npm run build`); in development, Vite serves it and forwards /billing here.
app.use(express.static('dist'));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`API on http://localhost:${port}`));
