// Plays moves on the muster table in headless Chromium and says what the page reports after
// each: the rules checker's findings the table lists, for comparison with the checker itself
// and with VASSAL on the same positions.
//
//   node agree.mjs URL SCENARIO MOVES.json
//
// MOVES.json is a list of [unit, from, to]. Prints one JSON line: {ok, steps}, where steps[0]
// lists what the page reports for the setup and steps[k] after the k-th move, each a list of
// the findings' texts; exits 1 when the page does not behave.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const [url, scenario, movesFile] = process.argv.slice(2);
const moves = JSON.parse(readFileSync(movesFile, "utf8"));
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
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  await page.selectOption("#scenario", scenario);
  const listed = () => page.$$eval("#findings li.violation", (items) => items.map((i) => i.textContent));
  const steps = [await listed()];
  for (const [unit, from, to] of moves) {
    const moved = await page.evaluate(([u, f, t]) => window.muster.move(u, f, t), [unit, from, to]);
    if (!moved) await fail(`no counter ${unit} on ${from}, or no hex ${to}`);
    steps.push(await listed());
  }
  if (errors.length) await fail(`page errors: ${errors.join("; ")}`);
  console.log(JSON.stringify({ ok: true, steps }));
  await browser.close();
} catch (e) {
  await fail(String(e));
}
