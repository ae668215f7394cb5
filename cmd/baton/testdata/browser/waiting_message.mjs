// Drives baton serve's chat page through a message written while the
// run waits for an approval: the message steers the waiting run, which
// skips the call and ends with the steered reply. With DECIDE_FIRST=1,
// the run asks for two calls and the first is approved before the
// message is written. Prints the conversation as the page showed it at
// the end and after a reload, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node waiting_message.mjs URL
import { openPage, waitReady, waitShown } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const approval = '.tool[data-tool="shell"][data-state="approval-requested"] button.approve';
const ready = () => waitReady(page);
// The conversation as the page shows it, in order: each user text and
// assistant text, prefixed with its role, and each tool's state.
const shown = () =>
  page.evaluate(() =>
    [...document.querySelectorAll("#messages .text, #messages .tool")].map((e) =>
      e.classList.contains("tool")
        ? "tool: " + e.dataset.tool + ":" + e.dataset.state + " " + (e.querySelector("pre.error")?.textContent ?? "")
        : (e.closest(".message.user") ? "user: " : "assistant: ") + e.textContent,
    ),
  );
try {
  await page.fill("#prompt", "run it");
  await page.click("#send");
  await page.waitForSelector(approval);
  await ready();
  if (process.env.DECIDE_FIRST === "1") {
    // The first call is approved; the second waits on, and the message
    // that follows carries the decision.
    await page.click(approval);
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, approval);
  }
  await page.fill("#prompt", "skip it and say done");
  await page.click("#send");
  await waitShown(page, "Done.");
  await ready();
  // No call is left waiting for an approval once the page shows the run
  // as it ended.
  await page.waitForFunction(() => !document.querySelector('.tool[data-state="approval-requested"]'));
  const before = await shown();

  // The thread has no run in flight: once the reloaded page is done
  // asking, it shows all it will.
  await page.reload({ waitUntil: "networkidle" });
  const after = await shown();
  const error = await page.textContent("#error");
  process.stdout.write(JSON.stringify({ before, after, error, consoleErrors }) + "\n");
} finally {
  await close();
}
