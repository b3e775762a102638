// Drives the brand check page in headless Chromium (Debian's chromium,
// through playwright-core) as a visitor would, and checks what it shows.
// It only needs the base URL of a running server, however that server was
// started (a Go test's httptest server, or `brandlens serve`).
//
//   node brand-check-browser.mjs BASE_URL SCENARIO SCREENSHOT.png
//
// SCENARIO:
//   check  submit a website the server refuses and see the error at its
//          field; then fill the form right, submit, wait for the result;
//          assert the grade, the score and one bar per platform
//   limit  run checks until the fourth; assert the friendly 429 message
//
// Prints one JSON line with what it saw; exits 1 with a reason on failure.
// BRANDLENS_CHROMIUM overrides /usr/bin/chromium.
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, scenario, shot] = process.argv.slice(2);
if (!base || !['check', 'limit'].includes(scenario) || !shot) {
  console.error('usage: node brand-check-browser.mjs BASE_URL check|limit SCREENSHOT.png');
  process.exit(2);
}

function fail(msg) {
  throw new Error(msg);
}

const profile = await mkdtemp(join(tmpdir(), 'brandlens-chromium-'));
// launchPersistentContext is how playwright gives Chromium a fresh
// --user-data-dir of our choosing.
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.BRANDLENS_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1000, height: 900 },
  timeout: 60_000,
});
let code = 0;
const page = context.pages()[0] || (await context.newPage());
const consoleErrors = [];
// The refused fourth check is logged by Chromium as a failed load; that one
// is expected.
page.on('console', (m) => {
  if (m.type() !== 'error') return;
  if ((scenario === 'limit' && /status of 429/.test(m.text())) || (scenario === 'check' && /status of 422/.test(m.text()))) return;
  consoleErrors.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(String(e)));

async function submit(brand, website) {
  await page.getByLabel('Brand name').fill(brand);
  await page.getByLabel('Website').fill(website);
  // Keyboard, as many visitors do: Enter in the last field submits.
  await page.getByLabel('Website').press('Enter');
  await page.waitForFunction(() => {
    const r = document.getElementById('result'), e = document.getElementById('error');
    const busy = document.getElementById('check-form').getAttribute('aria-busy') === 'true';
    return !busy && (!r.hidden || !e.hidden);
  }, null, { timeout: 45_000 });
}

async function readResult() {
  if (await page.locator('#result').isHidden()) {
    fail('no result shown; error: ' + (await page.locator('#error').textContent()));
  }
  const grade = (await page.locator('#grade').textContent()).trim();
  const score = Number((await page.locator('#gauge-number').textContent()).trim());
  const cfg = JSON.parse(await page.locator('#bl-config').textContent());
  const bars = await page.locator('#platforms li.platform .bar').count();
  const names = await page.locator('#platforms li.platform').evaluateAll((els) => els.map((e) => e.dataset.platform));
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  return { grade, score, bars, names, expected: cfg.platforms, focused };
}

try {
  const resp = await page.goto(new URL('/brand-check', base).href, { waitUntil: 'load' });
  if (!resp || resp.status() !== 200) fail('page answered ' + (resp && resp.status()));
  if (scenario === 'check') {
    // A website the server refuses: the error sits at the field, which is
    // marked invalid and focused.
    await submit('Acme Notes', 'http://localhost:8080/');
    const fieldMsg = (await page.locator('#website-error').textContent()).trim();
    if (!fieldMsg.startsWith('Website ') || (await page.getByLabel('Website').getAttribute('aria-invalid')) !== 'true') {
      fail(`422 not shown at the website field: ${JSON.stringify(fieldMsg)}`);
    }
    if (await page.evaluate(() => document.activeElement.id) !== 'website') fail('focus did not move to the invalid field');
    await submit('Acme Notes', 'acmenotes.com');
    const r = await readResult();
    if (!/^[A-F]$/.test(r.grade)) fail(`grade ${JSON.stringify(r.grade)} is not A–F`);
    if (!Number.isInteger(r.score) || r.score < 0 || r.score > 100) fail(`score ${r.score} is not 0–100`);
    if (r.bars !== r.expected.length || r.names.join() !== r.expected.join()) {
      fail(`bars for ${r.names.join()} (${r.bars}), want one per platform: ${r.expected.join()}`);
    }
    if (r.focused !== 'result') fail(`focus is on ${r.focused}, not the result`);
    await page.screenshot({ path: shot, fullPage: true });
    console.log(JSON.stringify({ scenario, ...r, screenshot: shot }));
  } else {
    const brands = ['Acme Notes', 'Beta Mail', 'Gamma Pay', 'Delta CRM'];
    for (let i = 0; i < brands.length; i++) {
      await submit(brands[i], 'https://' + brands[i].toLowerCase().replace(' ', '') + '.com');
      const shown = await page.locator('#result').isVisible();
      if (i < 3 && !shown) fail(`check ${i + 1} was refused: ${await page.locator('#error').textContent()}`);
      if (i === 3 && shown) fail('the fourth check was not refused');
    }
    const msg = (await page.locator('#error').textContent()).trim();
    const role = await page.locator('#error').getAttribute('role');
    if (!/used your free checks for today/.test(msg) || !/next free check is available in \d+ (h \d+ min|min|s)/.test(msg)) {
      fail(`unfriendly limit message: ${JSON.stringify(msg)}`);
    }
    if (role !== 'alert') fail('the error is not announced (role=alert)');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(JSON.stringify({ scenario, message: msg, screenshot: shot }));
  }
  if (consoleErrors.length) fail('console errors: ' + consoleErrors.join(' | '));
} catch (e) {
  console.error('brand-check-browser: ' + e.message);
  try { await page.screenshot({ path: shot, fullPage: true }); } catch (_) { /* nothing to show */ }
  code = 1;
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
process.exit(code);
