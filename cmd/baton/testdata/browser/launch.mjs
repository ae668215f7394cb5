// Opens a page in Debian's Chromium, headless, on a fresh profile that
// is removed on close, and records the page's console errors, uncaught
// exceptions and failed responses. A wait on the page that times out
// says what the page showed and which requests it made, so that a
// failure seen once can be read after the fact.
import { chromium } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function openPage(url) {
  const profile = await mkdtemp(join(tmpdir(), "baton-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const consoleErrors = [];
  const page = await browser.newPage();
  page.setDefaultTimeout(20000);
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && consoleErrors.push(r.status() + " " + r.url()));
  const requests = [];
  const started = Date.now();
  const note = (r, how) => requests.push(`${Date.now() - started}ms ${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search} ${how}`);
  page.on("request", (r) => note(r, "sent"));
  page.on("requestfinished", async (r) => note(r, "finished " + ((await r.response())?.status() ?? "?")));
  page.on("requestfailed", (r) => note(r, "failed " + r.failure()?.errorText));
  for (const wait of ["waitForFunction", "waitForSelector"]) {
    const original = page[wait].bind(page);
    page[wait] = (...args) => original(...args).catch(async (e) => {
      // Node prints an uncaught error's stack, which holds its message.
      e.stack = `${e.stack ?? e.message}\n${await describe(page, requests, consoleErrors)}`;
      throw e;
    });
  }
  await page.goto(url);
  const close = async () => {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  };
  return { page, consoleErrors, close };
}

// waitReady waits until the page's chat has no request in progress.
export const waitReady = (page) => page.waitForFunction(() => document.getElementById("status").textContent === "ready");

// waitShown waits until the page's conversation shows text.
export const waitShown = (page, text) => page.waitForFunction((t) => document.getElementById("messages").innerText.includes(t), text);

// describe says what the page shows and what it asked the server, for a
// wait that timed out.
async function describe(page, requests, consoleErrors) {
  const shown = await page
    .evaluate(() => ({
      status: document.getElementById("status")?.textContent,
      error: document.getElementById("error")?.textContent,
      messages: document.getElementById("messages")?.innerText,
    }))
    .catch((e) => ({ unreadable: String(e) }));
  return [
    "the page showed: " + JSON.stringify(shown),
    "console errors: " + JSON.stringify(consoleErrors),
    "requests:",
    ...requests.map((r) => "  " + r),
  ].join("\n");
}
