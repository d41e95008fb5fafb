// Firefox and WebKit for the end-to-end smoke (engine-smoke.ts). Playwright's own builds of
// these engines cannot be installed here, so each is driven by what drives Debian's package:
// Firefox ESR by puppeteer-core over WebDriver BiDi, WebKitGTK's MiniBrowser by webdriverio over
// its WebDriver (classic). Both sit behind one small interface, EnginePage, that the smoke's
// steps use: navigate, run a function in the page, click and type like a user (the automation's
// own pointer and keyboard), enter an iframe, take a screenshot.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
import { findFirefox } from '../../scripts/prereqs.mjs';
import { startWebKitDriver, webkitCapabilities } from '../../scripts/webkit-driver.mjs';
import { SCREENSHOT_DIR } from './helpers.js';

export type SmokeEngine = 'firefox' | 'webkit';

/**
 * The user's system preferences the browser starts with. Neither engine's automation can switch
 * them while a page runs (only Chromium's DevTools protocol can), so a browser is started with
 * them: Firefox through its preferences, WebKitGTK through MiniBrowser's --dark-mode and a GTK
 * setting (gtk-enable-animations, which it reads as prefers-reduced-motion).
 */
export interface Preferences {
  /** prefers-color-scheme: dark */
  dark?: boolean;
  /** prefers-reduced-motion: reduce */
  reducedMotion?: boolean;
}

/** The same size as the Chromium tests' pages (helpers.ts). */
const VIEWPORT = { width: 1360, height: 900 };

/**
 * An element in the page, as the steps leading to it: each one is looked for inside the previous
 * element's shadow root (or inside the element itself when it has none), the first in the
 * document. A step is a CSS selector, or a selector and a text the element must contain.
 * `['buy-feature[feature="seats"]', '[part~="buy"]']` is the seats' buy button.
 */
export type Step = string | { readonly css: string; readonly text: string };
export type Path = readonly Step[];

/** Finds a Path's element; runs in the page, so it calls nothing of this module. */
export function findInPage(path: Path): Element | null {
  let scope: Document | Element = document;
  let found: Element | null = null;
  for (const step of path) {
    const root: ParentNode = (scope as Element).shadowRoot ?? scope;
    const css = typeof step === 'string' ? step : step.css;
    found = null;
    for (const candidate of root.querySelectorAll(css)) {
      const text = (candidate.textContent ?? '').replace(/\s+/g, ' ');
      if (typeof step === 'string' || text.includes(step.text)) {
        found = candidate;
        break;
      }
    }
    if (!found) return null;
    scope = found;
  }
  return found;
}

export function pathText(path: Path): string {
  return path
    .map((step) => (typeof step === 'string' ? step : `${step.css} "${step.text}"`))
    .join(' → ');
}

/** What the smoke reads of an element. */
export interface ElementFacts {
  /** Its text, white space folded. */
  text: string;
  /** A text field's value. */
  value: string | null;
  /** A dialog's open state. */
  open: boolean | null;
  /** Whether it matches :modal (a dialog opened with showModal). */
  modal: boolean;
  /** Whether it has the focus within its document or shadow root. */
  focused: boolean;
  /** Its rendered height, in CSS pixels. */
  height: number;
}

/** Reads an element's facts; runs in the page, so it calls nothing of this module. */
function factsOf(element: Element): ElementFacts {
  const root = element.getRootNode() as Document | ShadowRoot;
  return {
    text: (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
    value: element instanceof HTMLInputElement ? element.value : null,
    open: element instanceof HTMLDialogElement ? element.open : null,
    modal: element.matches(':modal'),
    focused: root.activeElement === element,
    height: element.getBoundingClientRect().height,
  };
}

/** Both libraries' "run this function in the page", typed as the smoke uses it. */
type Evaluate<A extends unknown[], R> = (fn: (...args: A) => R, ...args: A) => Promise<Awaited<R>>;

export interface EnginePage {
  readonly engine: SmokeEngine;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Runs `fn` in the page (or in the frame entered by inFrame) and returns its result. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** The facts of the element at `path`, or null when there is none. */
  facts(path: Path): Promise<ElementFacts | null>;
  /** Uncaught errors of the page's scripts (WebKit: since the last goto, see WebKitPage). */
  errors(): Promise<string[]>;
  /**
   * Clicks the element with the automation's pointer, as a user would: once it holds still
   * (holdStill), so that the pointer goes where the element is, not where it was.
   */
  click(path: Path): Promise<void>;
  /** Replaces the text field's value by typing `text` with the automation's keyboard. */
  type(path: Path, text: string): Promise<void>;
  /** Runs `steps` in the iframe at `path` (a cross-origin one too), then comes back to the page. */
  inFrame<T>(path: Path, steps: () => Promise<T>): Promise<T>;
  /** Saves test-results/screenshots/<engine>-<name>.png. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface EngineBrowser {
  readonly engine: SmokeEngine;
  /** A page in a fresh session: no cookies, no storage. */
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}

async function screenshotPath(engine: SmokeEngine, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${engine}-${name}.png`);
}

/** Where an element is in the viewport. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Resolves once `read` gives the same box twice running, a couple of the page's frames apart
 * (`frames`): the element is laid out and holds still. A click reads the element's place, then
 * moves the pointer there; an element still moving by then is missed. The modal portal, for
 * one, is centred on its hosted page, which the frame takes the height of only once it shows.
 */
async function holdStill(
  read: () => Promise<Box | null>,
  frames: () => Promise<unknown>,
  what: string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last = await read();
  for (;;) {
    await frames();
    const box = await read();
    const same =
      box !== null &&
      last !== null &&
      (['x', 'y', 'width', 'height'] as const).every((side) => box[side] === last![side]);
    if (same) return;
    if (Date.now() > deadline) throw new Error(`${what} did not hold still to be clicked`);
    last = box;
  }
}

/**
 * Two of the page's animation frames; runs in the page, so it calls nothing of this module
 * (WebKitPage writes it out again, as WebDriver's asynchronous script wants it).
 */
function twoFrames(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
  });
}

// Firefox: puppeteer-core over WebDriver BiDi.

class FirefoxPage implements EnginePage {
  readonly engine = 'firefox';
  #page: puppeteer.Page;
  #context: puppeteer.BrowserContext;
  /** Where evaluate and the element look-ups run: the page, or the frame entered. */
  #scope: puppeteer.Page | puppeteer.Frame;
  #errors: string[] = [];

  constructor(context: puppeteer.BrowserContext, page: puppeteer.Page) {
    this.#context = context;
    this.#page = page;
    this.#scope = page;
    page.on('pageerror', (error) => this.#errors.push(String(error)));
  }

  async goto(url: string): Promise<void> {
    await this.#page.goto(url);
  }

  async url(): Promise<string> {
    return this.#page.url();
  }

  async evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
    const evaluate = this.#scope.evaluate.bind(this.#scope) as unknown as Evaluate<A, R>;
    return evaluate(fn, ...args);
  }

  async facts(path: Path): Promise<ElementFacts | null> {
    const handle = await this.#scope.evaluateHandle(findInPage, path);
    try {
      const element = handle.asElement() as puppeteer.ElementHandle<Element> | null;
      return element ? await element.evaluate(factsOf) : null;
    } finally {
      await handle.dispose();
    }
  }

  async errors(): Promise<string[]> {
    return [...this.#errors];
  }

  async #element(path: Path): Promise<puppeteer.ElementHandle<Element>> {
    const handle = await this.#scope.evaluateHandle(findInPage, path);
    const element = handle.asElement();
    if (!element) {
      await handle.dispose();
      throw new Error(`No element at ${pathText(path)}`);
    }
    return element as puppeteer.ElementHandle<Element>;
  }

  async click(path: Path): Promise<void> {
    const element = await this.#element(path);
    try {
      // Its box in the page's viewport: within its frame, and where the frame is in the page.
      await holdStill(
        () => element.boundingBox(),
        () => this.#scope.evaluate(twoFrames),
        pathText(path),
      );
      await element.click();
    } finally {
      await element.dispose();
    }
  }

  async type(path: Path, text: string): Promise<void> {
    const element = await this.#element(path);
    try {
      // Focused with what it holds selected, so the typing replaces it.
      await element.evaluate((field) => {
        (field as HTMLInputElement).focus();
        (field as HTMLInputElement).select();
      });
      await this.#page.keyboard.type(text);
    } finally {
      await element.dispose();
    }
  }

  async inFrame<T>(path: Path, steps: () => Promise<T>): Promise<T> {
    const element = await this.#element(path);
    const frame = await (element as puppeteer.ElementHandle<HTMLIFrameElement>).contentFrame();
    await element.dispose();
    if (!frame) throw new Error(`No frame at ${pathText(path)}`);
    const outer = this.#scope;
    this.#scope = frame;
    try {
      return await steps();
    } finally {
      this.#scope = outer;
    }
  }

  async screenshot(name: string): Promise<void> {
    await this.#page.screenshot({ path: await screenshotPath(this.engine, name) });
  }

  async close(): Promise<void> {
    await this.#context.close();
  }
}

async function launchFirefox(preferences: Preferences): Promise<EngineBrowser> {
  const extraPrefsFirefox: Record<string, number> = {};
  // 0 is dark, 1 light, 2 the system's (the default).
  if (preferences.dark) extraPrefsFirefox['layout.css.prefers-color-scheme.content-override'] = 0;
  if (preferences.reducedMotion) extraPrefsFirefox['ui.prefersReducedMotion'] = 1;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findFirefox(),
    headless: true,
    extraPrefsFirefox,
  });
  return {
    engine: 'firefox',
    async newPage() {
      // A user context of its own: cookies and storage start empty.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.setViewport(VIEWPORT);
      return new FirefoxPage(context, page);
    },
    close: () => browser.close(),
  };
}

// WebKit: webdriverio over WebKitGTK's WebDriver (classic).

type WebdriverBrowser = Awaited<ReturnType<typeof remote>>;

class WebKitPage implements EnginePage {
  readonly engine = 'webkit';
  #session: WebdriverBrowser;

  constructor(session: WebdriverBrowser) {
    this.#session = session;
  }

  async goto(url: string): Promise<void> {
    await this.#session.url(url);
    // WebDriver classic reports no page errors: the page collects its own from here on (until
    // it navigates away; the errors of its first scripts, run before this, are not seen).
    await this.#session.execute(() => {
      const seen: string[] = [];
      Object.assign(window, { smokeErrors: seen });
      window.addEventListener('error', (event) => seen.push(String(event.message)));
      window.addEventListener('unhandledrejection', (event) => seen.push(String(event.reason)));
    });
  }

  async errors(): Promise<string[]> {
    return this.#session.execute(
      () => (window as unknown as { smokeErrors?: string[] }).smokeErrors ?? [],
    );
  }

  async facts(path: Path): Promise<ElementFacts | null> {
    const reference = await this.#session.execute(findInPage, path);
    return reference ? this.#session.execute(factsOf, reference) : null;
  }

  async url(): Promise<string> {
    return this.#session.getUrl();
  }

  async evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
    // WebDriver's "execute script" waits for a returned promise to settle.
    const execute = this.#session.execute.bind(this.#session) as unknown as Evaluate<A, R>;
    return execute(fn, ...args);
  }

  async #element(path: Path) {
    // An element returned by a script is a WebDriver element reference, shadow roots or not.
    const reference = await this.#session.execute(findInPage, path);
    if (!reference) throw new Error(`No element at ${pathText(path)}`);
    return this.#session.$(reference as unknown as WebdriverIO.Element);
  }

  async click(path: Path): Promise<void> {
    const element = await this.#element(path);
    // Its box in its own document (WebDriver classic runs scripts in the frame entered).
    await holdStill(
      () =>
        this.#session.execute((found) => found.getBoundingClientRect().toJSON() as Box, element),
      () =>
        this.#session.executeAsync((done: () => void) => {
          requestAnimationFrame(() => requestAnimationFrame(() => done()));
        }),
      pathText(path),
    );
    await element.click();
  }

  async type(path: Path, text: string): Promise<void> {
    // WebDriver's "element clear" then "element send keys": focus, then one key per character.
    await (await this.#element(path)).setValue(text);
  }

  async inFrame<T>(path: Path, steps: () => Promise<T>): Promise<T> {
    const reference = await this.#session.execute(findInPage, path);
    if (!reference) throw new Error(`No frame at ${pathText(path)}`);
    await this.#session.switchToFrame(reference as never);
    try {
      return await steps();
    } finally {
      // Back to the page: its top, should the frame have gone meanwhile.
      await this.#session.switchToParentFrame().catch(() => this.#session.switchToFrame(null));
    }
  }

  async screenshot(name: string): Promise<void> {
    await this.#session.saveScreenshot(await screenshotPath(this.engine, name));
  }

  async close(): Promise<void> {
    await this.#session.deleteSession();
  }
}

/** A GTK configuration folder (XDG_CONFIG_HOME) that turns animations off, for reduced motion. */
async function gtkConfigWithoutAnimations(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'billing-e2e-gtk-'));
  await mkdir(join(folder, 'gtk-3.0'));
  await writeFile(join(folder, 'gtk-3.0', 'settings.ini'), '[Settings]\ngtk-enable-animations=0\n');
  return folder;
}

/**
 * How long WebKitWebDriver may take to start MiniBrowser for a new session. A start takes 1 to 5 s
 * under load; rarely the driver never answers at all (its request hangs until webdriverio's own
 * 120 s limit), so a session that has not started by then is given up with its driver.
 */
const SESSION_START_MS = 30_000;
const SESSION_START_ATTEMPTS = 3;

type WebKitDriver = Awaited<ReturnType<typeof startWebKitDriver>>;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

async function launchWebKit(preferences: Preferences): Promise<EngineBrowser> {
  const gtkConfig = preferences.reducedMotion ? await gtkConfigWithoutAnimations() : null;
  const startDriver = () =>
    startWebKitDriver({ env: gtkConfig ? { XDG_CONFIG_HOME: gtkConfig } : {} });
  const capabilities = webkitCapabilities({ extraArgs: preferences.dark ? ['--dark-mode'] : [] });
  const sessions = new Map<WebdriverBrowser, WebKitDriver>();
  const drivers = new Set<WebKitDriver>();
  let driver = await startDriver();
  drivers.add(driver);

  /** Starts a session; a driver that hangs is replaced (and stopped once no session uses it). */
  async function startSession(): Promise<WebdriverBrowser> {
    for (let attempt = 1; ; attempt++) {
      const used = driver;
      try {
        const session = await within(
          remote({ hostname: used.hostname, port: used.port, logLevel: 'error', capabilities }),
          SESSION_START_MS,
          'Starting a WebKit session',
        );
        sessions.set(session, used);
        return session;
      } catch (error) {
        if (attempt === SESSION_START_ATTEMPTS) throw error;
        console.warn(`${(error as Error).message}; starting WebKitWebDriver again`);
        driver = await startDriver();
        drivers.add(driver);
        if (![...sessions.values()].includes(used)) {
          drivers.delete(used);
          await used.stop();
        }
      }
    }
  }

  return {
    engine: 'webkit',
    async newPage() {
      // One WebDriver session per page: MiniBrowser starts afresh, with no cookies or storage.
      const session = await startSession();
      await session.setWindowSize(VIEWPORT.width, VIEWPORT.height);
      const page = new WebKitPage(session);
      const close = page.close.bind(page);
      page.close = async () => {
        sessions.delete(session);
        await close();
      };
      return page;
    },
    async close() {
      for (const session of sessions.keys()) await session.deleteSession().catch(() => undefined);
      for (const each of drivers) await each.stop();
      if (gtkConfig) await rm(gtkConfig, { recursive: true, force: true });
    },
  };
}

export function launchEngine(
  engine: SmokeEngine,
  preferences: Preferences = {},
): Promise<EngineBrowser> {
  return engine === 'firefox' ? launchFirefox(preferences) : launchWebKit(preferences);
}
