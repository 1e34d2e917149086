// Drives Web/index.html in headless Chromium over the DevTools protocol (--remote-debugging-pipe, no packages):
// serves the repository on 127.0.0.1, chooses Vectors/demo/demo.kdbx in the file input, types a wrong password
// and then the right one, clicks Open, checks the DOM for the demo's entries, searches, edits an entry, downloads
// the changed vault and opens it with the native CLI; writes a screenshot of the opened vault.
//   node Web/test/browser-check.mjs [--screenshot Web/screenshot.png]
// Environment: CHROMIUM (default: chromium, chromium-browser or google-chrome on PATH), KDBX_BIN.
// Prints ok / FAIL / SKIP lines; exits 0 with a SKIP line when no Chromium is installed (the caller reports it).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const demoPath = join(root, "Vectors/demo/demo.kdbx");
const screenshotArgument = process.argv.indexOf("--screenshot");
const screenshotPath = screenshotArgument > 0 ? process.argv[screenshotArgument + 1] : null;
let failures = 0;
const check = (condition, name, detail) => {
  if (!condition) failures += 1;
  console.log(`${condition ? "ok  " : "FAIL"} ${name}${!condition && detail ? `: ${detail}` : ""}`);
};

const browser = [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome"].find(
  (name) => name && spawnSync("sh", ["-c", `command -v "${name}"`]).status === 0,
);
if (!browser) {
  console.log("SKIP no Chromium installed (apt-get install chromium): the page was not checked in a browser");
  process.exit(0);
}
const kdbxBin = [process.env.KDBX_BIN, join(root, ".build/release/kdbx"), join(root, ".build/debug/kdbx")].find(
  (path) => path && existsSync(path),
);
if (!existsSync(join(root, "Web/kdbx.wasm"))) {
  console.log("FAIL Web/kdbx.wasm is missing (bash Web/build.sh)");
  process.exit(1);
}

const server = await serve(0);
const port = server.address().port;
const profile = mkdtempSync(join(tmpdir(), "kdbx-chromium-"));
const downloads = join(profile, "downloads");
// fd 3: our commands to Chromium; fd 4: its replies and events, each JSON message ended by NUL.
const chromium = spawn(
  browser,
  [
    "--headless=new", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
    "--disable-extensions", "--disable-background-networking", `--user-data-dir=${profile}`,
    ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), "about:blank",
  ],
  { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
);
let chromiumLog = "";
chromium.stdio[2].on("data", (chunk) => void (chromiumLog = (chromiumLog + chunk).slice(-4000)));
const waiting = new Map();
let nextId = 1;
let buffered = "";
chromium.stdio[4].on("data", (chunk) => {
  buffered += chunk.toString("utf8");
  let end;
  while ((end = buffered.indexOf("\0")) >= 0) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    const waiter = waiting.get(message.id);
    if (waiter) {
      waiting.delete(message.id);
      message.error ? waiter.reject(new Error(JSON.stringify(message.error))) : waiter.resolve(message.result);
    }
  }
});
function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  chromium.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + "\0");
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let session;
const page = (method, params) => send(method, params, session);
async function evaluate(expression) {
  const { result, exceptionDetails } = await page("Runtime.evaluate", {
    expression, awaitPromise: true, returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text} ${result?.description ?? ""}`);
  return result.value;
}
async function waitFor(expression, seconds, what) {
  for (let waited = 0; waited < seconds * 10; waited += 1) {
    const value = await evaluate(expression);
    if (value) return value;
    await sleep(100);
  }
  throw new Error(`timed out after ${seconds} s waiting for ${what}`);
}

const watchdog = setTimeout(() => {
  console.log("FAIL the browser check did not finish in 150 s");
  chromium.kill("SIGKILL");
  process.exit(1);
}, 150_000);

try {
  const { targetInfos } = await send("Target.getTargets");
  const target = targetInfos.find((info) => info.type === "page");
  ({ sessionId: session } = await send("Target.attachToTarget", { targetId: target.targetId, flatten: true }));
  await page("Runtime.enable");
  await page("Page.enable");
  await page("Emulation.setDeviceMetricsOverride", { width: 1180, height: 640, deviceScaleFactor: 1, mobile: false });
  await send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, eventsEnabled: true });
  await page("Page.navigate", { url: `http://127.0.0.1:${port}/Web/` });
  await waitFor("document.readyState === 'complete' && !!document.getElementById('open')", 20, "the page");

  // Choose the file as a user does (the file input), then type a wrong password and click Open.
  const { root: documentNode } = await page("DOM.getDocument", {});
  const { nodeId } = await page("DOM.querySelector", { nodeId: documentNode.nodeId, selector: "#file" });
  await page("DOM.setFileInputFiles", { nodeId, files: [demoPath] });
  await evaluate("document.getElementById('password').value = 'not the password'; document.getElementById('open').click()");
  await waitFor("document.body.dataset.state", 60, "the wrong-password answer");
  const wrongStatus = await evaluate("document.getElementById('status').textContent");
  check(
    (await evaluate("document.body.dataset.state")) === "error" && wrongStatus.startsWith("Wrong password"),
    "a wrong password is reported as such in the page", wrongStatus,
  );

  await evaluate("delete document.body.dataset.state; document.getElementById('password').value = 'demo'; " +
    "document.getElementById('open').click()");
  const state = await waitFor("document.body.dataset.state", 60, "the vault to open");
  check(state === "opened", "demo.kdbx opens in the page with the password typed in", await evaluate(
    "document.getElementById('status').textContent"));

  // The DOM lists the demo's entries: the same titles the native CLI exports.
  const titles = await evaluate("[...document.querySelectorAll('#entries tr td:first-child')].map(c => c.textContent)");
  const groups = await evaluate("[...document.querySelectorAll('#groups button')].map(b => b.textContent)");
  let expected = null;
  if (kdbxBin) {
    const exported = spawnSync(kdbxBin, ["export", demoPath, "--format", "json"], { input: "demo\n", encoding: "utf8" });
    expected = JSON.parse(exported.stdout);
  }
  const expectedTitles = expected ? expected.entries.map((entry) => entry.title) : ["GitHub", "Bank"];
  check(
    expectedTitles.every((title) => titles.includes(title)) && titles.length === expectedTitles.length,
    `the entry list shows the demo's ${titles.length} entries (${titles.slice(0, 4).join(", ")}, ...)`,
    `got ${JSON.stringify(titles)}`,
  );
  check(
    groups.some((name) => name.includes("Internet")) && groups.length === (expected ? expected.groups.length + 1 : 7),
    `the group tree shows the root and the demo's ${groups.length - 1} groups`, JSON.stringify(groups),
  );

  // Search narrows the list; the GitHub entry shows its TOTP code with a countdown.
  await evaluate("{ const s = document.getElementById('search'); s.value = 'github'; s.dispatchEvent(new Event('input')) }");
  const found = await evaluate("[...document.querySelectorAll('#entries tr td:first-child')].map(c => c.textContent)");
  check(found.includes("GitHub") && found.length < titles.length,
    `searching 'github' narrows the list to ${found.length} of ${titles.length} entries`, JSON.stringify(found));
  await evaluate("[...document.querySelectorAll('#entries tr')].find(r => r.textContent.startsWith('GitHub')).click()");
  const code = await waitFor("document.getElementById('totp-code')?.textContent", 10, "the TOTP code");
  check(/^\d{6,8}$/.test(code), `the GitHub entry shows a TOTP code (${code.length} digits) and its countdown`);
  await evaluate("{ const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')) }");
  await sleep(300);
  if (screenshotPath) {
    const { data } = await page("Page.captureScreenshot", { format: "png" });
    writeFileSync(screenshotPath, Buffer.from(data, "base64"));
    console.log(`screenshot written to ${screenshotPath}`);
  }

  // Edit the user name, download the changed vault, and open the download with the native CLI.
  await evaluate("{ const f = document.getElementById('edit'); f.UserName.value = 'edited-in-chromium'; " +
    "f.querySelector('button').click() }");
  await waitFor("!document.getElementById('download').disabled", 10, "the download button");
  await evaluate("document.getElementById('download').click()");
  await waitFor("document.body.dataset.saved", 60, "the save");
  let downloaded = null;
  for (let waited = 0; waited < 100 && !downloaded; waited += 1) {
    const files = existsSync(downloads) ? readdirSync(downloads).filter((name) => name.endsWith(".kdbx")) : [];
    if (files.length) downloaded = join(downloads, files[0]);
    else await sleep(100);
  }
  check(downloaded !== null, "the changed vault downloads as demo.kdbx");
  if (downloaded && kdbxBin) {
    const shown = spawnSync(kdbxBin, ["show", downloaded, "Internet/GitHub"], { input: "demo\n", encoding: "utf8" });
    check(shown.status === 0 && shown.stdout.includes("edited-in-chromium"),
      "the native CLI opens the downloaded vault and shows the edit", shown.stderr);
  } else if (!kdbxBin) {
    console.log("SKIP no native kdbx binary: the downloaded vault was not opened natively");
  }
} catch (error) {
  check(false, "the browser check ran to its end", `${error.message}\n${chromiumLog.slice(-1500)}`);
} finally {
  clearTimeout(watchdog);
  // Chromium's helper processes can still write to the profile for a moment after the browser is told to stop:
  // wait for it to exit, then remove the profile with retries. A profile left in /tmp is reported, not a failure.
  const exited = chromium.exitCode !== null ? Promise.resolve() : new Promise((done) => chromium.once("exit", done));
  chromium.kill();
  await Promise.race([exited, sleep(5000)]);
  server.close();
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.log(`note: could not remove the Chromium profile ${profile}: ${error.message}`);
  }
}
console.log(failures ? `browser check: ${failures} failure(s)` : "browser check: all checks passed");
process.exit(failures ? 1 : 0);
