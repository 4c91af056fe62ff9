// The prufe fixture on an honest page: the step is verified and its effect is the cart line.
import { expect as base, mergeExpects, mergeTests, test as plain } from '@playwright/test';
import { expect as prufeExpect, test as prufeTest } from '../../../node/src/test.js';

const test = mergeTests(prufeTest, plain);
const expect = mergeExpects(prufeExpect, base);

test('an honest click is verified', async ({ page, prufe }) => {
  await page.goto('/shop.html');
  const added = await prufe.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'add Shirt M to the cart' });
  expect(added.verdict).toBe('MATCH');
  await expect(added).toBeVerified();
  await expect(added).toHaveEffect('appeared listitem[Shirt M Remove Shirt M] in cart/list:cart-items');
  await expect(page.getByRole('status')).toHaveText('Added Shirt M');
});

test.describe('with one attempt', () => {
  test.use({ prufeOptions: { maxAttempts: 1 } });
  test('a wrong effect is refused by the matcher, not thrown', async ({ page, prufe }) => {
    await page.goto('/recycled-list.html');
    await expect(prufe.click({ role: 'button', name: 'Add Shirt M' })).not.toBeVerified();
  });
});
