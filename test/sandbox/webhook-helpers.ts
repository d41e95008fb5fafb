// Shared set-up of the notification tests: a real webhook receiver (a node:http server that
// records every POST and answers what the test tells it to), sandboxes with short retry waits,
// and readers of the delivery log.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import type { DeliverySettingsInput, WebhookTargetInput } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from './helpers.js';
import { sleep, waitFor } from '../time.js';

export { sleep };

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read loosely in tests
  body: any;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Answer {
  status: number;
  /** Wait this long before answering. */
  delayMs?: number;
  headers?: Record<string, string>;
}

/** What to answer to the `index`-th request (0 = the first). */
export type Responder = (index: number, received: Received) => Answer;

export interface Receiver {
  url: string;
  received: Received[];
  /** Bodies received with a TypeTrigger (the events, not the verification posts). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  events(): any[];
  respond(responder: Responder): void;
  /** Resolves once `count` requests came; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** base64 of SHA-256 over the UTF-8 bytes of key + secret, computed here independently. */
export function expectedSignature(key: string, secret: string): string {
  return createHash('sha256')
    .update(Buffer.from(key + secret, 'utf8'))
    .digest('base64');
}

export async function startReceiver(
  responder: Responder = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: Received[] = [];
  let respond = responder;
  const pendingAnswers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
        at: Date.now(),
      };
      received.push(entry);
      const answer = respond(received.length - 1, entry);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify({ status: answer.status }));
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        pendingAnswers.delete(timer);
        send();
      }, answer.delayMs);
      pendingAnswers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/billing`,
    received,
    events: () =>
      received.filter((entry) => entry.body?.TypeTrigger !== undefined).map((entry) => entry.body),
    respond(next) {
      respond = next;
    },
    async waitFor(count, timeoutMs) {
      await waitFor(
        () => received.length >= count,
        `${count} requests (${received.length} so far)`,
        timeoutMs,
      );
      return received;
    },
    async close() {
      for (const timer of pendingAnswers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const SECRET = 'whsec-for-the-sandbox-tests';
/** Short waits so that retries happen within a test. */
export const FAST: DeliverySettingsInput = {
  initialDelayMs: 40,
  maxDelayMs: 400,
  maxAttempts: 4,
  timeoutMs: 2_000,
};
/** Receivers and sandboxes that the calling test file closes after its tests. */
export function webhookTestKit() {
  const opened: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const item of opened.reverse()) await item.close();
  });
  return {
    async receiver(responder?: Responder): Promise<Receiver> {
      const started = await startReceiver(responder);
      opened.push(started);
      return started;
    },
    async sandboxWith(
      targets: WebhookTargetInput[],
      delivery: DeliverySettingsInput = FAST,
    ): Promise<TestSandbox> {
      const t = await startTestSandbox({ webhooks: targets, webhookDelivery: delivery });
      opened.push(t);
      return t;
    },
    /** Closes `item` with the others. */
    track<T extends { close(): Promise<void> }>(item: T): T {
      opened.push(item);
      return item;
    },
  };
}

/** Answers 200 to the verification post and `eventStatus(n)` to the n-th event. */
export function eventsAnswer(eventStatus: (n: number) => number, delayMs = 0): Responder {
  let events = 0;
  return (_index, received) =>
    received.body?.TypeTrigger === undefined
      ? { status: 200 }
      : { status: eventStatus(events++), delayMs };
}

/** A usage applied through the API: API calls within the included quantity, so free (one notification). */
export const usage = (t: TestSandbox, increment = 1, customer = 'healthy') =>
  t.api('POST', '/v1/Usage', {
    ReferenceCustomer: customer,
    ReferenceFeature: 'api-calls',
    Increment: increment,
  });

/** The delivery log, oldest first (`query`: ?type=…&customer=…). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers are read loosely
export async function deliveries(t: TestSandbox, query = ''): Promise<any[]> {
  const answer = await t.control('GET', `/webhooks/deliveries${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.notifications;
}

/** Polls the log until `check` holds for the notification `id` (or fails after 3 s). */
export async function deliveryOf(
  t: TestSandbox,
  id: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  check: (record: any) => boolean,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  let record: unknown;
  try {
    return await waitFor(async () => {
      record = (await t.control('GET', `/webhooks/deliveries/${id}`)).body;
      return check(record) && record;
    }, `notification ${id}`);
  } catch {
    assert.fail(`notification ${id}: ${JSON.stringify(record)}`);
  }
}
