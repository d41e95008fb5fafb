import type { SandboxContext } from '../context.js';
import { json } from '../http/io.js';
import type { Router } from '../http/router.js';
import { presentInvoice } from './present.js';
import { idParam } from './validate.js';

export function registerInvoiceRoutes(router: Router, ctx: SandboxContext): void {
  // 12.
  router.add('GET', '/v1/Invoice/{id}', ({ params }) =>
    json(200, presentInvoice(ctx, ctx.store.invoice(idParam(params.id, 'IdInvoice')))),
  );
}
