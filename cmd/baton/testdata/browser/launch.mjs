// Opens a page in Debian's Chromium, headless, on a fresh profile that
// is removed on close, and records the page's console errors, uncaught
// exceptions and failed responses.
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
