import * as z from 'zod';
import { jsonNumber, parse } from '../api/validate.js';
import type { SandboxContext } from '../context.js';
import { ApiError, notFound } from '../http/errors.js';
import { json, readJson } from '../http/io.js';
import type { Router } from '../http/router.js';
import { WebhookTargetSchema } from '../notifications/settings.js';

// The control API of the notifications: targets, the delivery log, replays and the test modes
// (docs/sandbox.md, "Notifications"). Specific paths are registered before `{id}` ones: the
// router takes the first match.

const ReplayBody = z.object({ target: z.string().min(1).optional() }).strict();

const MAX_MODE_COUNT = 1_000;
const ModeBody = z
  .object({
    duplicate: jsonNumber(z.int().min(0).max(MAX_MODE_COUNT)).optional(),
    holdAndReverse: jsonNumber(z.int().min(0).max(MAX_MODE_COUNT)).optional(),
  })
  .strict()
  .refine((mode) => mode.duplicate !== undefined || mode.holdAndReverse !== undefined, {
    message: 'give duplicate or holdAndReverse',
  });

function unknownNotification(id: string): ApiError {
  return notFound('Error.Api.NotFound', `No notification '${id}' in the delivery log.`, 'id');
}

export function registerWebhookRoutes(router: Router, ctx: SandboxContext): void {
  const { notifier } = ctx;
  const targetsView = () => ({ targets: notifier.targets(), delivery: notifier.settings });

  router.add('GET', '/_sandbox/webhooks', () => json(200, targetsView()));

  router.add('POST', '/_sandbox/webhooks', async ({ req }) => {
    const config = parse(WebhookTargetSchema, await readJson(req));
    return json(201, notifier.addTarget(config));
  });

  router.add('GET', '/_sandbox/webhooks/deliveries', ({ query }) => {
    const type = query.get('type') ?? undefined;
    const customer = query.get('customer') ?? undefined;
    return json(200, { notifications: notifier.deliveries({ type, customer }) });
  });

  router.add('DELETE', '/_sandbox/webhooks/deliveries', () => {
    notifier.clearLog();
    return json(200, { notifications: [] });
  });

  router.add('GET', '/_sandbox/webhooks/deliveries/{id}', ({ params }) => {
    const id = params.id ?? '';
    const record = notifier.find(id);
    if (!record) throw unknownNotification(id);
    return json(200, record);
  });

  router.add('POST', '/_sandbox/webhooks/deliveries/{id}/replay', async ({ req, params }) => {
    const id = params.id ?? '';
    const body = parse(ReplayBody, await readJson(req, true));
    if (!notifier.find(id)) throw unknownNotification(id);
    if (body.target !== undefined && !notifier.hasTarget(body.target)) {
      throw new ApiError(
        422,
        'Error.Api.Validation',
        `No webhook target '${body.target}'.`,
        'target',
      );
    }
    if (notifier.replay(id, body.target) === 0) {
      throw new ApiError(
        409,
        'Error.Api.Validation',
        'No webhook target to replay it to (the target it was sent to was removed).',
      );
    }
    return json(202, notifier.find(id));
  });

  router.add('GET', '/_sandbox/webhooks/mode', () => json(200, notifier.mode()));
  router.add('POST', '/_sandbox/webhooks/mode', async ({ req }) => {
    return json(200, notifier.setMode(parse(ModeBody, await readJson(req))));
  });
  router.add('DELETE', '/_sandbox/webhooks/mode', () => json(200, notifier.clearMode()));

  router.add('DELETE', '/_sandbox/webhooks/{id}', ({ params }) => {
    const id = params.id ?? '';
    if (!notifier.removeTarget(id)) {
      throw notFound('Error.Api.NotFound', `No webhook target '${id}'.`, 'id');
    }
    return json(200, targetsView());
  });
}
