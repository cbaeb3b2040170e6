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
import { openTable } from "./page.mjs";

const [url, scenario, movesFile] = process.argv.slice(2);
const moves = JSON.parse(readFileSync(movesFile, "utf8"));
const { browser, page, errors, fail } = await openTable(url, { width: 1200, height: 800 });
try {
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
