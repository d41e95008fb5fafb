import type { IncomingMessage } from 'node:http';
import { safeEqual } from '../tokens.js';
import { ApiError } from './errors.js';

/** HTTP Basic with the agent key as user name and the API key as password. */
export function checkBasicAuth(req: IncomingMessage, agentKey: string, apiKey: string): void {
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) {
    throw new ApiError(
      401,
      'Error.Api.Authentication.Failed',
      'Missing HTTP Basic credentials (agent key and API key).',
    );
  }
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  // Both comparisons always run, so timing does not tell which part was wrong.
  const userOk = safeEqual(user, agentKey);
  const passwordOk = safeEqual(password, apiKey);
  if (!userOk || !passwordOk) {
    throw new ApiError(401, 'Error.Api.Authentication.Failed', 'Wrong agent key or API key.');
  }
}
