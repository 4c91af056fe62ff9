// Fails on purpose: the recycled list adds Trousers L for a click on Add Shirt M, so the
// verified click throws VerificationFailed and the test fails with the step's report.
// (../package-test-fixture.test.mjs checks that it fails, and how it says so.)
import { test } from '../../../node/src/test.js';

test('add a shirt on the recycled list', async ({ page, prufe }) => {
  await page.goto('/recycled-list.html');
  await prufe.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'add Shirt M to the cart' });
});
