// The proxy as a Cloudflare Worker: its settings come from the Worker's env (vars and secrets).
import { toWorkerHandler } from 'billing-elements/server/worker';
import { billingOptions } from './billing.mjs';

export default toWorkerHandler((env) => billingOptions(env));
