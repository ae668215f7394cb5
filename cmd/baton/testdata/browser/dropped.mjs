// Drives baton serve's chat page through a message the run never takes:
// types a prompt, approves the long shell call the model makes, sends a
// second message while the call runs (the run takes it at its next model
// call), then clicks Stop. Prints the user messages the page shows as not
// delivered, and as pending, before and after a reload, as JSON, for the
// Go test.
//
//   CHROMIUM=/usr/bin/chromium node dropped.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const steers = [];
page.on("response", (r) => r.url().endsWith("/steer") && steers.push(r.status()));
const texts = (selector) =>
  page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => e.textContent), selector);
const shown = async () => ({
  dropped: await texts(".message.user.dropped .text"),
  pending: await texts(".message.user.pending .text"),
});
try {
  await page.fill("#prompt", "run it");
  await page.click("#send");
  const shell = '.tool[data-tool="shell"]';
  await page.click(`${shell}[data-state="approval-requested"] button.approve`);
  await page.waitForFunction(() => document.getElementById("status").textContent === "streaming");
  await page.fill("#prompt", "then list the files");
  const steered = page.waitForResponse((r) => r.url().endsWith("/steer"));
  await page.click("#send");
  await steered;
  await page.click("#stop");
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");
  const before = await shown();

  await page.reload({ waitUntil: "networkidle" });
  const after = await shown();
  process.stdout.write(JSON.stringify({ before, after, steers, consoleErrors }) + "\n");
} finally {
  await close();
}
