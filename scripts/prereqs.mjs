// Finds (and on a Debian-like machine, as root, installs) the programs the tests need that npm
// cannot provide: a Chrome or Chromium for browser tests, and redis-server for the Redis store.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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
