// Finds (and on a Debian-like machine, as root, installs) the programs the tests need that npm
// cannot provide: the three browser engines (a Chrome or Chromium, a Firefox, WebKitGTK's
// WebDriver with its MiniBrowser and a virtual display) and redis-server for the Redis store.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const CHROME_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];
const FIREFOX_CANDIDATES = [
  '/usr/bin/firefox-esr',
  '/usr/bin/firefox',
  '/usr/lib/firefox-esr/firefox-esr',
  '/snap/bin/firefox',
  '/Applications/Firefox.app/Contents/MacOS/firefox',
  'C:\\Program Files\\Mozilla Firefox\\firefox.exe',
];
const WEBKIT_DRIVER_CANDIDATES = ['/usr/bin/WebKitWebDriver', '/usr/local/bin/WebKitWebDriver'];
const XVFB_CANDIDATES = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'];
const REDIS_CANDIDATES = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/opt/homebrew/bin/redis-server',
];

function isDebianRoot() {
  return (
    existsSync('/etc/debian_version') &&
    typeof process.getuid === 'function' &&
    process.getuid() === 0
  );
}

let aptUpdated = false;
function aptInstall(pkg) {
  if (!aptUpdated) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    aptUpdated = true;
  }
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function onPath(name) {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

function find(envName, candidates, pathName, aptPackage, howTo) {
  const fromEnv = process.env[envName];
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`${envName} is set to ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  const found = candidates.find((path) => existsSync(path)) ?? onPath(pathName);
  if (found) return found;
  if (isDebianRoot()) {
    console.log(`[prereqs] ${pathName} not found: installing Debian's ${aptPackage}`);
    aptInstall(aptPackage);
    const installed = candidates.find((path) => existsSync(path)) ?? onPath(pathName);
    if (installed) return installed;
  }
  throw new Error(`No ${pathName} found. ${howTo}`);
}

/** Path of a Chrome or Chromium: CHROME_PATH, then the usual install paths, else Debian's chromium. */
export function findChrome() {
  return find(
    'CHROME_PATH',
    CHROME_CANDIDATES,
    'chromium',
    'chromium',
    'Install Chrome or Chromium (Debian/Ubuntu: sudo apt-get install chromium) or set CHROME_PATH to its executable.',
  );
}

/** Path of redis-server: REDIS_SERVER, then the usual paths, else Debian's redis-server. */
export function findRedisServer() {
  return find(
    'REDIS_SERVER',
    REDIS_CANDIDATES,
    'redis-server',
    'redis-server',
    'Install Redis (Debian/Ubuntu: sudo apt-get install redis-server, macOS: brew install redis) or set REDIS_SERVER to redis-server.',
  );
}

/** Path of a Firefox (ESR or release): FIREFOX_PATH, then the usual paths, else Debian's firefox-esr. */
export function findFirefox() {
  return find(
    'FIREFOX_PATH',
    FIREFOX_CANDIDATES,
    'firefox-esr',
    'firefox-esr',
    'Install Firefox (Debian: sudo apt-get install firefox-esr) or set FIREFOX_PATH to its executable.',
  );
}

const WEBKIT_HOW_TO =
  'The WebKit tests drive WebKitGTK (Debian/Ubuntu: sudo apt-get install webkit2gtk-driver xvfb); ' +
  'set WEBKIT_WEBDRIVER and WEBKIT_BROWSER to use another build.';

/** Path of WebKitGTK's WebDriver: WEBKIT_WEBDRIVER, then the usual paths, else Debian's webkit2gtk-driver. */
export function findWebKitDriver() {
  return find(
    'WEBKIT_WEBDRIVER',
    WEBKIT_DRIVER_CANDIDATES,
    'WebKitWebDriver',
    'webkit2gtk-driver',
    WEBKIT_HOW_TO,
  );
}

/** MiniBrowser, WebKitGTK's own browser that its WebDriver automates (installed with the driver). */
function miniBrowserCandidates() {
  const found = [];
  for (const base of ['/usr/lib', '/usr/libexec', '/usr/local/lib']) {
    let entries;
    try {
      entries = readdirSync(base);
    } catch {
      continue;
    }
    // Debian keeps it under the multiarch folder (/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/),
    // other distributions directly under lib or libexec; the 4.1 API (libsoup 3) before 4.0.
    const folders = [
      base,
      ...entries.filter((name) => name.endsWith('-linux-gnu')).map((name) => `${base}/${name}`),
    ];
    for (const folder of folders)
      for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0'])
        found.push(`${folder}/${api}/MiniBrowser`);
  }
  return found;
}

/** Path of the WebKitGTK browser the driver starts: WEBKIT_BROWSER, else the MiniBrowser beside the driver. */
export function findWebKitBrowser() {
  findWebKitDriver(); // installs the driver, which brings the browser, when both are missing
  return find(
    'WEBKIT_BROWSER',
    miniBrowserCandidates(),
    'MiniBrowser',
    'webkit2gtk-driver',
    WEBKIT_HOW_TO,
  );
}

/** Path of Xvfb, the virtual display WebKitGTK's MiniBrowser draws on (it has no headless mode). */
export function findXvfb() {
  return find('XVFB', XVFB_CANDIDATES, 'Xvfb', 'xvfb', WEBKIT_HOW_TO);
}

/** Flags Chromium needs here: root, no GPU, closed network. */
export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
