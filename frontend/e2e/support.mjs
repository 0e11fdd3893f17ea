// End-to-end support: the real `setupiq` binary on a scratch SQLite database, Debian's
// Chromium driven by playwright-core, the outbox read like a mail program, and axe.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { deflateSync, crc32 } from 'node:zlib'
import AxeBuilder from '@axe-core/playwright'
import { simpleParser } from 'mailparser'
import { chromium } from 'playwright-core'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '..', '..')

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => done(port))
    })
  })
}

// The shared calibration photo the journeys analyse (the Makefile exports SETUPIQ_EVAL_PHOTOS;
// beside the clone otherwise), and why a journey that needs it is skipped without it.
const photos = process.env.SETUPIQ_EVAL_PHOTOS || resolve(repo, '..', 'shared', 'photos')
export const SETUP_PHOTO = join(photos, 'setup05_rgb_dark_dual.jpg')
export const SETUP_PHOTO_SKIP = existsSync(SETUP_PHOTO)
  ? false
  : `the setup photo ${SETUP_PHOTO} is absent (set SETUPIQ_EVAL_PHOTOS)`

/** The embedded analyzer runs on the CPU; a debug build takes its time. */
export const ANALYSIS_TIMEOUT = 180_000

/** Analyses SETUP_PHOTO from Home and answers the score /results shows. */
export async function analyzePhoto(page) {
  await page.goto('/')
  await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()
  return analyzeChosen(page, SETUP_PHOTO)
}

/** Chooses `photo` in the analyse form already on the page, analyses it and answers the score
 *  /results shows. */
export async function analyzeChosen(page, photo) {
  await page.getByLabel(/Setup photo/).setInputFiles(photo)
  await page.getByTestId('chosen-file').waitFor()
  await page.getByRole('button', { name: 'Analyze My Setup' }).click()
  await page.waitForURL('**/results')
  const score = page.getByTestId('overall-score')
  const failed = page.getByRole('heading', { name: 'Analysis Failed' })
  await score.or(failed).waitFor({ timeout: ANALYSIS_TIMEOUT })
  if (await failed.isVisible()) assert.fail(`the analysis failed: ${await page.getByTestId('analysis-error').innerText()}`)
  return score.innerText()
}

/** The account that registers as an admin (listed in the server's SETUPIQ_ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@e2e.example.com'

/** Starts `setupiq serve` with a fresh data directory; resolves once it answers. */
export async function startServer() {
  const binary = process.env.SETUPIQ_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'debug', 'setupiq')
  const dataDir = mkdtempSync(join(tmpdir(), 'setupiq-e2e-'))
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const child = spawn(binary, ['serve'], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH,
      RUST_LOG: 'warn',
      SETUPIQ_BIND: `127.0.0.1:${port}`,
      SETUPIQ_PUBLIC_URL: baseUrl,
      SETUPIQ_DATA_DIR: dataDir,
      SETUPIQ_FRONTEND_DIR: join(repo, 'frontend', 'dist'),
      // The embedded analyzer's model files (the server loads them before it listens).
      SETUPIQ_MODELS_DIR: process.env.SETUPIQ_MODELS_DIR ?? join(repo, 'models'),
      SETUPIQ_ADMIN_EMAILS: ADMIN_EMAIL,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise((done) => child.once('exit', done))
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`setupiq exited with ${child.exitCode}`)
    try {
      const res = await fetch(`${baseUrl}/_api/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    baseUrl,
    dataDir,
    /** The e-mails in the outbox, parsed, oldest first. */
    async outbox() {
      const dir = join(dataDir, 'outbox')
      let files = []
      try {
        files = readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => join(dir, f))
      } catch {
        return []
      }
      files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
      return Promise.all(files.map((f) => simpleParser(readFileSync(f))))
    },
    async stop() {
      child.kill('SIGTERM')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
}

/**
 * Waits until nothing on the page is moving: every CSS transition and finite animation has
 * finished (a spinner that turns for ever does not count). axe reads colours as they are
 * drawn at that instant, and a toast fading in or out has a contrast nobody reads; on a
 * busy machine the fade lasts long enough for axe to catch it.
 */
async function settled(page) {
  await page.waitForFunction(
    // eslint-disable-next-line no-undef -- runs in the page
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    null,
    { timeout: 15_000 },
  )
}

/**
 * Waits until the toasts are gone: those stacked behind the front one stay faded on purpose
 * (sonner), and axe would measure their contrast.
 */
export async function toastsGone(page) {
  // eslint-disable-next-line no-undef -- runs in the page
  await page.waitForFunction(() => document.querySelectorAll('[data-sonner-toast]').length === 0, null, { timeout: 15_000 })
}

/**
 * The serious and critical accessibility violations of the page once it has settled, one
 * line each. `exclude` lists selectors to leave out; a frame without scripts (`sandbox=""`)
 * must be, or axe waits for it forever.
 */
export async function accessibilityViolations(page, { exclude = [] } = {}) {
  await settled(page)
  const builder = new AxeBuilder({ page })
  for (const selector of exclude) builder.exclude(selector)
  const results = await builder.analyze()
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  return bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)
}

/** Fails on serious or critical accessibility violations of the page as it is now. */
export async function expectAccessible(page, assert, what, options = {}) {
  assert.deepEqual(await accessibilityViolations(page, options), [], `axe on ${what}`)
}

/** A small PNG photo (a violet gradient), built in memory. */
export function pngPhoto(width = 320, height = 200) {
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    raw[row] = 0
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = 120 + Math.round((x / width) * 100)
      raw[row + 2 + x * 3] = 60
      raw[row + 3 + x * 3] = 200 - Math.round((y / height) * 100)
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(typed))
    return Buffer.concat([length, typed, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * One server and one browser for a test file (node:test `before`/`after`). `freshPage`
 * opens an isolated browser context whose pages record uncaught errors and
 * Content-Security-Policy violations into `problems`; `consent: true` stores a cookie
 * choice first so the banner stays away.
 */
export function e2eSession(before, after) {
  const session = { server: null, browser: null, problems: [] }
  before(async () => {
    session.server = await startServer()
    session.browser = await launchBrowser()
  })
  after(async () => {
    await session.browser?.close()
    await session.server?.stop()
  })
  session.freshPage = async (options = {}, { consent = false } = {}) => {
    const context = await session.browser.newContext({ baseURL: session.server.baseUrl, ...options })
    if (consent) {
      await context.addInitScript(() => {
        try {
          localStorage.setItem('setupiq-cookie-consent', 'accepted')
        } catch {
          // A sandboxed frame (the RigPage preview) has no storage; the script runs there too.
        }
      })
    }
    const page = await context.newPage()
    page.on('pageerror', (error) => session.problems.push(`${page.url()}: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
        session.problems.push(`${page.url()}: ${message.text()}`)
      }
    })
    return { context, page }
  }
  return session
}

/**
 * Reads the page until `read()` gives `expected` (deep-equal, or a RegExp the text matches),
 * then asserts it: what a user waits for after an action, instead of one read that can come
 * before React has rendered the answer on a busy machine. Gives up after `timeout` ms and
 * fails with the last value read.
 */
export async function eventually(read, expected, what, timeout = 15_000) {
  const holds = (actual) => (expected instanceof RegExp ? typeof actual === 'string' && expected.test(actual) : isDeepStrictEqual(actual, expected))
  const deadline = Date.now() + timeout
  let actual = await read()
  while (!holds(actual) && Date.now() < deadline) {
    await new Promise((next) => setTimeout(next, 50))
    actual = await read()
  }
  if (expected instanceof RegExp) assert.match(actual, expected, what)
  else assert.deepEqual(actual, expected, what)
}

/** Waits until `locator`'s element holds the focus (a dialog hands it back after it closes). */
export async function waitForFocus(locator, timeout = 15_000) {
  const element = await locator.elementHandle({ timeout })
  await locator.page().waitForFunction((target) => target === globalThis.document.activeElement, element, { timeout })
}

/** A person's browser as the server sees it: headless Chromium's own User-Agent says
 * "HeadlessChrome", which the server takes for a tool and never counts as a click. */
export const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
