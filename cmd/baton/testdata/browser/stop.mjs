// Drives baton serve's chat page through a Stop: types a prompt, approves
// the long shell call the model makes, clicks Stop while it runs, then
// sends a second prompt, which the stopped thread must answer. Prints
// what the page showed, and the answers to the page's abort requests, as
// JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node stop.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const aborts = [];
page.on("response", (r) => r.url().endsWith("/abort") && aborts.push(r.status()));
try {
  await page.fill("#prompt", "run it");
  await page.click("#send");
  const shell = '.tool[data-tool="shell"]';
  await page.click(`${shell}[data-state="approval-requested"] button.approve`);
  await page.waitForFunction(() => document.getElementById("status").textContent === "streaming");
  await page.click("#stop");
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");
  const thread = await page.textContent("#thread");

  await page.fill("#prompt", "and now?");
  await page.click("#send");
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("Stopped, as asked."));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");

  const result = await page.evaluate(() => ({
    assistant: [...document.querySelectorAll(".message.assistant .text")].map((e) => e.textContent),
    error: document.getElementById("error").textContent,
  }));
  process.stdout.write(JSON.stringify({ ...result, thread, aborts, consoleErrors }) + "\n");
} catch (e) {
  process.stderr.write("aborts " + JSON.stringify(aborts) + " status " + (await page.textContent("#status")) + " error " + (await page.textContent("#error")) + "\n");
  throw e;
} finally {
  await close();
}
