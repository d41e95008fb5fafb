// Mocha's globals as web-test-runner provides them in the browser (the project installs no
// @types/mocha). Function declarations merge, so another file declaring them too is fine.
declare function describe(title: string, body: (this: unknown) => void): void;
declare function it(title: string, body: (this: { timeout(ms: number): void }) => unknown): void;
/** Mocha's skipped test: listed as skipped (pending), its body never run. */
declare namespace it {
  function skip(title: string, body: (this: { timeout(ms: number): void }) => unknown): void;
}
declare function before(body: () => unknown): void;
declare function after(body: () => unknown): void;
declare function beforeEach(body: () => unknown): void;
declare function afterEach(body: () => unknown): void;
