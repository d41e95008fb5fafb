// Which engine runs the browser tests (web-test-runner.config.mjs starts one per run), for the
// few tests that depend on what the engine's automation offers rather than on the elements.
export type Engine = 'chromium' | 'firefox' | 'webkit';

function detect(userAgent: string): Engine {
  if (/\bFirefox\//.test(userAgent)) return 'firefox';
  // Chromium's user agent also names AppleWebKit and Safari, so it is told apart first.
  if (/\b(Chrome|Chromium|HeadlessChrome)\//.test(userAgent)) return 'chromium';
  if (/\bAppleWebKit\//.test(userAgent)) return 'webkit';
  throw new Error(`Unknown engine: ${userAgent}`);
}

export const engine: Engine = detect(navigator.userAgent);

/**
 * Whether the runner can change a media preference (`prefers-color-scheme`,
 * `prefers-reduced-motion`) while a page runs. Only the Chrome DevTools protocol can: WebDriver
 * BiDi (Firefox) and WebDriver classic (WebKit) have no command for it, and both browsers read
 * these preferences from the system once started.
 */
export const canEmulateMedia = engine === 'chromium';

/**
 * Whether the runner can resize the page's viewport (`setViewport`): the DevTools protocol
 * (Chromium) and WebDriver BiDi (Firefox) can, @web/test-runner-webdriver (WebKit) cannot. A
 * test that needs a narrow page in every engine puts it in a frame of that width (frames.ts).
 */
export const canSetViewport = engine !== 'webkit';

/**
 * Whether the runner can hold a key down and let it go later (`sendKeys({ down })`, then
 * `{ up }`): puppeteer can (Chromium, Firefox); @web/test-runner-webdriver (WebKit) only
 * presses and types.
 */
export const canHoldKeys = engine !== 'webkit';
