// Drives baton serve's chat page from the keyboard: Shift+Enter breaks
// the line, an Enter that confirms an input method's composition (as
// Japanese or Chinese typing ends a word) leaves the prompt unsent, and
// Enter sends it. Prints what the page showed, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node keys.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
try {
  await page.click("#prompt");
  await page.keyboard.type("first line");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("second line");
  // What Chromium sends for the Enter that ends a composition.
  await page.evaluate(() =>
    document.getElementById("prompt").dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", keyCode: 229, isComposing: true, bubbles: true, cancelable: true }),
    ),
  );
  const sentWhileComposing = await page.evaluate(() => document.querySelectorAll(".message.user").length);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("Noted."));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");

  const result = await page.evaluate(() => ({
    user: [...document.querySelectorAll(".message.user .text")].map((e) => e.textContent),
    prompt: document.getElementById("prompt").value,
  }));
  process.stdout.write(JSON.stringify({ ...result, sentWhileComposing, consoleErrors }) + "\n");
} finally {
  await close();
}
