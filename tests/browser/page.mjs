// Opens the muster table in headless Chromium for the browser tests: the browser, a page
// showing URL once it is ready, the page errors seen, and `fail`, which prints why the page
// did not behave as one JSON line and exits 1.
import { chromium } from "playwright-core";

export async function openTable(url, viewport) {
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const fail = async (why) => {
    console.log(JSON.stringify({ ok: false, why }));
    await browser.close();
    process.exit(1);
  };
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  } catch (e) {
    await fail(String(e));
  }
  return { browser, page, errors, fail };
}
