// Drives baton serve's chat page in a real headless Chromium, as a user
// would: types a prompt, approves the shell call the model makes, answers
// its question, and prints what the page showed, as JSON, for the Go test.
//
//   CHROMIUM=/usr/bin/chromium node chat.mjs URL
import { openPage } from "./launch.mjs";

const [url] = process.argv.slice(2);
const { page, consoleErrors, close } = await openPage(url);
try {
  // Every length the last assistant text had, to see it stream.
  await page.evaluate(() => {
    window.lengths = [];
    new MutationObserver(() => {
      const texts = document.querySelectorAll(".message.assistant .text");
      const n = texts.length ? texts[texts.length - 1].textContent.length : 0;
      if (window.lengths.at(-1) !== n) window.lengths.push(n);
    }).observe(document.getElementById("messages"), { childList: true, subtree: true, characterData: true });
  });

  await page.fill("#prompt", "check the page <b>now</b>");
  await page.click("#send");

  const shell = '.tool[data-tool="shell"]';
  await page.click(`${shell}[data-state="approval-requested"] button.approve`);
  await page.waitForSelector(`${shell}[data-state="output-available"]`);
  const shellOutput = await page.textContent(`${shell} pre.output`);

  const question = '.tool[data-tool="ask_human"] form.question';
  const asked = await page.textContent(`${question} label`);
  await page.fill(`${question} input.answer`, "Bergen");
  await page.click(`${question} button`);
  await page.waitForFunction(() => document.getElementById("messages").innerText.includes("Going to Bergen"));
  await page.waitForFunction(() => document.getElementById("status").textContent === "ready");

  const result = await page.evaluate(() => ({
    user: [...document.querySelectorAll(".message.user .text")].map((e) => e.textContent),
    assistant: [...document.querySelectorAll(".message.assistant .text")].map((e) => e.textContent),
    tools: [...document.querySelectorAll(".tool")].map((e) => e.dataset.tool + ":" + e.dataset.state),
    bold: document.querySelectorAll("#messages b").length,
    error: document.getElementById("error").textContent,
    lengths: window.lengths,
  }));
  process.stdout.write(JSON.stringify({ ...result, shellOutput, asked, consoleErrors }) + "\n");
} finally {
  await close();
}
