// Drives baton serve's chat page through a failed run: the first prompt's
// model call fails, the page shows the error the server sent, shows it
// again once reloaded, and the next prompt on the reloaded page (the same
// thread) starts a new run whose reply is shown. Prints what the page showed, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node failure.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
try {
  await page.fill("#prompt", "hello");
  await page.click("#send");
  await page.waitForSelector("#error:not([hidden])");
  const error = await page.textContent("#error");
  const statusAfterError = await page.textContent("#status");

  await page.reload();
  await page.waitForFunction(() => document.querySelector(".message.user .text")?.textContent === "hello");
  await page.waitForSelector("#error:not([hidden])", { timeout: 5000 }).catch(() => {});
  const errorAfterReload = await page.evaluate(() =>
    document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  );

  await page.fill("#prompt", "try again");
  await page.click("#send");
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("Back again."));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");

  const result = await page.evaluate(() => ({
    user: [...document.querySelectorAll(".message.user .text")].map((e) => e.textContent),
    assistant: [...document.querySelectorAll(".message.assistant .text")].map((e) => e.textContent),
    errorAfter: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
    page: document.body.innerText,
  }));
  process.stdout.write(JSON.stringify({ ...result, error, statusAfterError, errorAfterReload, consoleErrors }) + "\n");
} finally {
  await close();
}
