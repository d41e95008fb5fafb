import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { link, useTestSandbox } from './helpers.js';
import { completedWorkflow, findLink, openPage, submit } from './hosted-pages.js';

// A suspended subscription whose overdue invoices reach the cap (`capping-reached`, Carl): the
// service refuses a restart until they are paid, so the portal home offers to pay them first,
// and the restart once the cap is lifted.

describe('portal home of a customer whose overdue invoices block the restart', () => {
  const t = useTestSandbox();

  const subscription = async () =>
    (await t.api('GET', '/v1/Subscription?ReferenceCustomer=capping-reached')).body;
  const home = async () =>
    openPage(link(await subscription(), 'hosted-related-subscription').href ?? '');

  it('offers to pay the overdue invoices, not a restart the service would refuse', async () => {
    const page = await home();
    assert.equal(page.status, 200);
    assert.match(page.html, /Some invoices are overdue\. Pay them, then restart\./);
    assert.throws(() => findLink(page, 'Restart subscription'), /no link/);
    // Single sign-on is in Pro, but a suspended subscription's features stop.
    assert.match(
      page.html,
      /Single sign-on<\/th>\s*<td class="num">Included, paused while suspended</,
    );
    const charge = await openPage(findLink(page, 'Pay overdue invoices'));
    assert.match(charge.html, /Pay an invoice|Pay \$/);
  });

  it('after the invoices are paid from the home, it offers the restart', async () => {
    const due = (await t.customer('capping-reached')).invoices.length;
    assert.ok(due > 0);
    for (let paid = 0; paid < due; paid++) {
      const page = await home();
      if (!page.html.includes('Pay overdue invoices')) break;
      const done = await submit(await openPage(findLink(page, 'Pay overdue invoices')));
      assert.equal(completedWorkflow(done), 'charge', done.html);
    }
    const after = await home();
    assert.equal((await subscription()).IsPaymentCappingReached, false);
    assert.doesNotMatch(after.html, /Some invoices are overdue/);
    const restart = await openPage(findLink(after, 'Restart subscription'));
    const restarted = await submit(restart);
    assert.equal(completedWorkflow(restarted), 'restart');
    assert.equal((await subscription()).StateSubscription, 'Running');
  });
});
