// Drives baton serve's chat page through a message sent while a run
// streams: types a prompt, and while the reply is still streaming in
// types and sends a second message, which must steer the run. Prints
// what the page showed, before and after a reload, and the answers to
// the page's steer requests, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node steer.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const steers = [];
page.on("response", (r) => r.url().endsWith("/steer") && steers.push(r.status()));
// The conversation as the page shows it, in order: each user text and
// assistant text, prefixed with its role.
const shown = () =>
  page.evaluate(() =>
    [...document.querySelectorAll("#messages .text")].map(
      (e) => (e.closest(".message.user") ? "user: " : "assistant: ") + e.textContent,
    ),
  );
try {
  await page.fill("#prompt", "write slowly");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector(".message.assistant .text")?.textContent.length > 10);
  const statusWhenSent = await page.textContent("#status");
  const sendEnabled = await page.isEnabled("#send");
  await page.fill("#prompt", "go left <i>instead</i>");
  await page.click("#send");
  const promptAfterSend = await page.inputValue("#prompt");
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("Going left."));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");
  const before = await shown();

  // The thread has no run in flight: once the reloaded page is done
  // asking, it shows all it will.
  await page.reload({ waitUntil: "networkidle" });
  const after = await shown();
  const error = await page.textContent("#error");
  process.stdout.write(JSON.stringify({ statusWhenSent, sendEnabled, promptAfterSend, before, after, steers, error, consoleErrors }) + "\n");
} finally {
  await close();
}
