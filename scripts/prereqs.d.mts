// Types of scripts/prereqs.mjs for the TypeScript tests that launch a browser or Redis.

/** Path of a Chrome or Chromium: CHROME_PATH, then the usual install paths, else Debian's chromium. */
export function findChrome(): string;
/** Path of redis-server: REDIS_SERVER, then the usual paths, else Debian's redis-server. */
export function findRedisServer(): string;
/** Flags Chromium needs here: root, no GPU, closed network. */
export const CHROME_FLAGS: readonly string[];
/** Path of a Firefox: FIREFOX_PATH, then the usual paths, else Debian's firefox-esr. */
export function findFirefox(): string;
/** Path of WebKitGTK's WebDriver: WEBKIT_WEBDRIVER, then the usual paths, else Debian's webkit2gtk-driver. */
export function findWebKitDriver(): string;
/** Path of the WebKitGTK browser the driver starts: WEBKIT_BROWSER, else the MiniBrowser beside the driver. */
export function findWebKitBrowser(): string;
/** Path of Xvfb, the virtual display WebKitGTK's MiniBrowser draws on. */
export function findXvfb(): string;
