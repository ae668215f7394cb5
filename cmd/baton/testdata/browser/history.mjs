// Drives baton serve's chat page through a reload of a thread with an
// earlier run: a first prompt runs to its end (its shell call approved),
// a second one waits for its own shell call's approval when the page is
// reloaded; the reloaded page must show the whole thread, and take the
// approval. Prints what the page showed right after the reload, at the
// end, and after a last reload, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node history.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const approval = '.tool[data-tool="shell"][data-state="approval-requested"] button.approve';
const ready = () => page.waitForFunction(() => document.getElementById("status").textContent === "ready");
const shows = (text) => page.waitForFunction((t) => document.getElementById("messages").innerText.includes(t), text);
const shown = () =>
  page.evaluate(() => ({
    user: [...document.querySelectorAll(".message.user .text")].map((e) => e.textContent),
    assistant: [...document.querySelectorAll(".message.assistant .text")].map((e) => e.textContent),
    tools: [...document.querySelectorAll(".tool")].map((e) => e.dataset.tool + ":" + e.dataset.state),
    outputs: [...document.querySelectorAll(".tool pre.output")].map((e) => e.textContent.trim()),
    bold: document.querySelectorAll("#messages b").length,
  }));
try {
  await page.fill("#prompt", "first <b>question</b>");
  await page.click("#send");
  await page.click(approval);
  await shows("First run done.");
  await ready();
  await page.fill("#prompt", "second question");
  await page.click("#send");
  await page.waitForSelector(approval);

  await page.reload();
  await page.waitForSelector(approval);
  const reloaded = await shown();
  await page.click(approval);
  await shows("Second run done.");
  await ready();
  const ended = await shown();

  // The thread has no run in flight: once the reloaded page is done
  // asking, it shows all it will.
  await page.reload({ waitUntil: "networkidle" });
  const again = await shown();
  const error = await page.textContent("#error");
  process.stdout.write(JSON.stringify({ reloaded, ended, again, error, consoleErrors }) + "\n");
} finally {
  await close();
}
