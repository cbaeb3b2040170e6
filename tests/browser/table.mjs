// Drives the muster table in headless Chromium: drags a counter onto a full hex, expects
// the page to report the violation the embedded checker finds, drags it back and expects
// the report to clear.
//
//   node table.mjs URL UNIT FROM TO [SCREENSHOT.png]
//
// Prints one JSON line with what it saw; exits 1 when the page does not behave.
import { openTable } from "./page.mjs";

const [url, unit, from, to, shot] = process.argv.slice(2);
const { browser, page, errors, fail } = await openTable(url, { width: 1500, height: 950 });
try {
  await page.selectOption("#zoom", "0.5");
  const before = await page.textContent("#status");
  if (before.trim() !== "0 violation(s)") await fail(`the setup starts with ${before}`);

  const drag = async (at, dest) => {
    await page.evaluate((l) => window.muster.scrollTo(l), at);
    const counter = page.locator(`#map img.counter[data-unit="${unit}"][data-hex="${at}"]`).first();
    const box = await counter.boundingBox();
    if (!box) await fail(`no counter ${unit} on ${at}`);
    const target = await page.evaluate((l) => window.muster.hexOnScreen(l), dest);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 12 });
    await page.mouse.up();
  };

  await drag(from, to);
  const item = page.locator(`#findings li.violation[data-location="${to}"]`).first();
  await item.waitFor({ timeout: 5000 }).catch(() => fail(`no violation reported at ${to}`));
  const message = await item.textContent();
  const ring = await page.locator(`#map .mark[data-location="${to}"]`).count();
  if (ring !== 1) await fail(`${to} is not marked on the map`);
  if (shot) {
    await page.evaluate((l) => window.muster.scrollTo(l), to);
    await page.screenshot({ path: shot });
  }
  await drag(to, from);
  await page.waitForFunction(() => document.querySelector("#status").textContent === "0 violation(s)", null, { timeout: 5000 })
    .catch(() => fail("the violation does not clear after moving back"));
  if (errors.length) await fail(`page errors: ${errors.join("; ")}`);
  console.log(JSON.stringify({ ok: true, message }));
  await browser.close();
} catch (e) {
  await fail(String(e));
}
