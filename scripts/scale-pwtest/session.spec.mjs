// One session of the scale bench as a Playwright Test spec: PRUFE_CLICKS verified clicks on
// "Add <product>" in fixtures/shop.html, then the recycling list's "Add Shirt M", which must be
// a MISMATCH, undone. Its steps (start and end in epoch ms, verdict) are the test's `steps`
// annotation, which scripts/scale.mjs reads from the JSON report.
import { test } from 'prufe/test';

const PRODUCTS = ['Shirt M', 'Trousers L', 'Socks S', 'Jumper XL', 'Cap'];
const CLICKS = Number(process.env.PRUFE_CLICKS || 8);
const now = () => performance.timeOrigin + performance.now();

test('a session of the scale bench', async ({ page, prufe }, testInfo) => {
  const steps = [];
  const button = (name) => page.getByRole('button', { name, exact: true });
  await page.goto('/shop.html');
  for (let i = 0; i < CLICKS; i++) {
    const start = now();
    const { verdict } = await prufe.click(button(`Add ${PRODUCTS[i % PRODUCTS.length]}`));
    steps.push({ start, end: now(), verdict });
  }
  await page.goto('/recycled-list.html');
  const start = now();
  let verdict;
  try {
    verdict = `${(await prufe.click(button('Add Shirt M'))).verdict} (not refused)`;
  } catch (error) {
    verdict = error.record ? `${error.record.verdict}, ${error.record.undone} undone` : error.code;
  }
  steps.push({ start, end: now(), verdict, recycled: true });
  testInfo.annotations.push({ type: 'steps', description: JSON.stringify(steps) });
});
