// Drives baton serve's chat page through a reload mid-run: types a
// prompt, waits for the shell call's approval request, reloads the page,
// and approves the call on the reloaded page. Prints what the page
// showed, and every URL and Referer the browser sent, as JSON, for the Go
// test.
//
//   CHROMIUM=/usr/bin/chromium node reload.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
const sent = [];
page.on("request", (r) => sent.push(r.url() + " " + (r.headers()["referer"] || "")));
try {
  await page.fill("#prompt", "run it");
  await page.click("#send");
  const approval = '.tool[data-tool="shell"][data-state="approval-requested"] button.approve';
  await page.waitForSelector(approval);
  const threadBefore = await page.textContent("#thread");

  await page.reload();
  await page.click(approval);
  await page.waitForSelector('.tool[data-tool="shell"][data-state="output-available"]');
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("All done."));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");

  const result = await page.evaluate(() => ({
    threadAfter: document.getElementById("thread").textContent,
    assistant: [...document.querySelectorAll(".message.assistant .text")].map((e) => e.textContent),
    tools: [...document.querySelectorAll(".tool")].map((e) => e.dataset.tool + ":" + e.dataset.state),
    shellOutput: document.querySelector('.tool[data-tool="shell"] pre.output')?.textContent || "",
    error: document.getElementById("error").textContent,
  }));
  process.stdout.write(JSON.stringify({ ...result, threadBefore, sent, consoleErrors }) + "\n");
} finally {
  await close();
}
