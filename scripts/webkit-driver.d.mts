// Types of scripts/webkit-driver.mjs for the TypeScript end-to-end tests (test/e2e/engines.ts).

export interface RunningWebKitDriver {
  /** Where a WebDriver client connects. */
  hostname: string;
  port: number;
  /** The Xvfb display MiniBrowser draws on. */
  display: string;
  /** Ends the driver and its display. */
  stop(): Promise<void>;
}

/**
 * Starts Xvfb and WebKitWebDriver on free ports; both end with `stop()` or with this process.
 * `env` is added to the environment of the driver and of the browsers it starts.
 */
export function startWebKitDriver(options?: {
  env?: Record<string, string>;
}): Promise<RunningWebKitDriver>;

/** WebDriver capabilities that start MiniBrowser under automation, with its `extraArgs`. */
export function webkitCapabilities(options?: { extraArgs?: string[] }): WebdriverIO.Capabilities;
