// Other "tabs" of the app for browser tests: same-origin iframes, each with its own copy of
// the runtime (module instances, usage stores), sharing the session storage and the
// BroadcastChannel of the origin, as tabs of the same app would share the channel.
import type * as Billing from '../../src/index.js';
import { waitFor } from '../time.js';

export interface TestFrame {
  frame: HTMLIFrameElement;
  window: Window & { billing: typeof Billing };
  document: Document;
  remove(): void;
}

/** The frame's size in CSS pixels: its page's viewport, which its media queries see. */
export interface FrameSize {
  width: number;
  height: number;
}

/**
 * A frame is also how a test gets a small viewport in every engine: WebKit's WebDriver cannot
 * resize the window (`setViewport`), but a page in a 360 px frame is a page on a 360 px screen.
 */
export async function openFrame(size: FrameSize = { width: 480, height: 320 }): Promise<TestFrame> {
  const frame = document.createElement('iframe');
  frame.title = 'Another tab of the app';
  frame.style.cssText = `width:${size.width}px;height:${size.height}px;border:0;display:block`;
  frame.src = new URL('./frame.html', import.meta.url).href;
  document.body.append(frame);
  await waitFor(
    () => (frame.contentWindow as (Window & { billing?: unknown }) | null)?.billing,
    'the test frame to start',
    10_000,
  );
  return {
    frame,
    window: frame.contentWindow as TestFrame['window'],
    document: frame.contentDocument!,
    remove: () => frame.remove(),
  };
}
