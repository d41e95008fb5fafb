// Runs once when the server starts: a missing or wrong billing option stops `next start` here,
// with every problem named, rather than at the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { billing } = await import('./lib/billing');
    billing.check();
  }
}
