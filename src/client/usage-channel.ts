// The usage store's cross-tab channel: one BroadcastChannel per page tells the other tabs of the
// same origin what this one learnt (new usages, a sign-out, a live update), so that every tab
// shows the same usages without asking the proxy again.
import type { Usage } from '../contract/resources.js';
import type { Account } from './usage-store.js';

const CHANNEL_NAME = 'billing-elements';

export interface UsagesMessage {
  type: 'usages';
  endpoint: string;
  usages: Usage[];
  at: number;
  /** The language of the usages' texts (the sending page's `lang`); absent: not known. */
  language?: string;
  /** Absent from older tabs: then nothing is known beyond the usages. */
  account?: Account;
  /** The customer they are of (see ProxyClient.customer); absent: not known. */
  customer?: string;
}
export interface ClearMessage {
  type: 'clear';
  endpoint: string;
  at: number;
}
/** The tab holding the live stream re-read the usages after a signal (sent after them). */
export interface UpdatedMessage {
  type: 'updated';
  endpoint: string;
  at: number;
}
export type ChannelMessage = UsagesMessage | ClearMessage | UpdatedMessage;

let channel: BroadcastChannel | null | undefined;
/** Where the other tabs' messages go (the usage stores of the page), once someone listens. */
let receiver: ((message: ChannelMessage) => void) | undefined;

/** The page's channel, opened on first need; null where there is no BroadcastChannel. */
function getChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);
  // Node has BroadcastChannel too (server rendering); there it must not keep the process alive.
  (channel as { unref?: () => void } | null)?.unref?.();
  channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data as Partial<ChannelMessage> | null;
    if (
      typeof message?.at === 'number' &&
      (message.type === 'clear' ||
        message.type === 'updated' ||
        (message.type === 'usages' && Array.isArray(message.usages)))
    )
      receiver?.(message as ChannelMessage);
  });
  return channel;
}

/** Gives every well-formed message of another tab to `receive`, from now on. */
export function listenToOtherTabs(receive: (message: ChannelMessage) => void): void {
  receiver = receive;
  getChannel();
}

/** Tells the other tabs (opening the channel if needed). */
export function postToOtherTabs(message: ChannelMessage): void {
  getChannel()?.postMessage(message);
}
