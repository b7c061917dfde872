import assert from 'node:assert/strict'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { Rng } from '../../src/sim/world/random.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * The dashboard at `/` in a real browser (Debian's Chromium driven by playwright-core), against the whole service on
 * the simulator with simulated time kept level with the wall clock, as a user sees it: the key asked once (signup in
 * place), rows within 5 s that change within 10 s, a selected pair's chart, both books (crc-checked) and evidence,
 * a venue strip that turns down and back when the simulator drops that venue's sockets, no console error, no request
 * off the machine, usable at a phone's width. Writes docs/dashboard.png (the README's picture).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const SCREENSHOT = join(REPO, 'docs', 'dashboard.png')

const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium package)`

/**
 * Moves the service's simulated clock with the wall clock (every 100 ms), re-sizing the top of a few matched markets
 * each turn so prices move at a steady rate, as the bench's boosted simulator does.
 */
class LiveTime {
  readonly #s: TestService
  readonly #timer: NodeJS.Timeout
  readonly #rng = new Rng(3)
  #last = Date.now()
  #paused = false

  constructor(s: TestService) {
    this.#s = s
    const world = s.sim.world
    const shared = new Set(world.truth.outcomePairs.map((p) => p.contractKey))
    const vp = venuepOf(world).markets.filter((m) => shared.has(m.contract.key))
    const vk = venuekOf(world).markets.filter((m) => shared.has(m.contract.key))
    this.#timer = setInterval(() => {
      const now = Date.now()
      const ms = now - this.#last
      this.#last = now
      if (this.#paused || ms <= 0) return
      s.advance(ms, Math.min(ms, 50))
      for (let i = 0; i < 3; i++) {
        if (vp.length > 0) s.sim.engine.churnTop('venuep', this.#rng.pick(vp), s.clock.now())
        if (vk.length > 0) s.sim.engine.churnTop('venuek', this.#rng.pick(vk), s.clock.now())
      }
    }, 100)
  }

  /** Holds simulated time still (a dropped feed's reconnect waits on it), then catches up on resume. */
  pause(): void {
    this.#paused = true
  }

  resume(): void {
    this.#paused = false
    this.#last = Date.now()
  }

  stop(): void {
    clearInterval(this.#timer)
  }
}

interface Watched {
  readonly page: Page
  /** Console errors and warnings, page errors, and requests to anything but the service. */
  readonly problems: string[]
}

async function openPage(context: BrowserContext, s: TestService): Promise<Watched> {
  const page = await context.newPage()
  const problems: string[] = []
  const origin = new URL(s.baseUrl).origin
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('request', (r) => {
    const url = r.url()
    if (!url.startsWith(origin) && !url.startsWith(origin.replace('http', 'ws')) && !url.startsWith('data:'))
      problems.push(`request off the service: ${url}`)
  })
  await page.goto(`${s.baseUrl}/`)
  return { page, problems }
}

/**
 * In-page callbacks: the suite compiles without the DOM library (it is Node code), so they reach the page's globals
 * through `globalThis` cast to the little they use. They must be functions, not strings: the page's CSP forbids
 * eval, which a string predicate would need.
 */
interface PageText {
  readonly textContent: string | null
}
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): PageText | null
    querySelectorAll(selector: string): ArrayLike<PageText>
    readonly body: { readonly dataset: Record<string, string | undefined> }
    readonly documentElement: { readonly scrollWidth: number }
  }
  readonly innerWidth: number
  readonly localStorage: { readonly length: number; key(i: number): string | null; getItem(k: string): string | null }
}

const rowIds = (page: Page): Promise<string[]> =>
  page.$$eval('#top-table tbody tr[data-id]', (rows) => rows.map((r) => String(r.getAttribute('data-id'))))

describe('dashboard in a real browser', { skip }, () => {
  let s: TestService
  let live: LiveTime
  let browser: Browser

  before(async () => {
    // History points as often as a spread moves (at most one a second; the default is a minute), so the chart's
    // current bucket has one; simulated time runs level with the wall clock, as in production.
    s = await startTestService({
      questions: 60,
      anchorMs: Date.now(),
      config: { spreads: { history: { minIntervalMs: 1_000, minChangeBps: 1 } } },
    })
    live = new LiveTime(s)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  })

  after(async () => {
    live?.stop()
    await browser?.close()
    await s?.close()
  })

  test('signup in place, live rows, a selected pair, books, evidence, venue strip, phone width', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const { page, problems } = await openPage(context, s)

    // Auth is on: the page asks for a key once; signing up in place stores the new one.
    await page.waitForSelector('#auth-dialog[open]', { timeout: 5_000 })
    await page.fill('#signup-email', 'dashboard-test@example.com')
    await page.fill('#signup-company', 'Browser Test Co')
    await page.fill('#signup-use-case', 'watching spreads')
    await page.click('#signup-submit')
    await page.waitForSelector('#auth-dialog', { state: 'hidden', timeout: 5_000 })
    const stored = await page.evaluate(() => {
      const { localStorage } = globalThis as unknown as PageGlobals
      return Array.from({ length: localStorage.length }, (_, i) => localStorage.getItem(localStorage.key(i) ?? ''))
    })
    assert.ok(
      stored.some((v) => v?.includes('pmk_live_') === true),
      'the new key is remembered',
    )

    // Rows within 5 s, each a pair the REST scanner knows; the simulated-data banner shows.
    await page.waitForSelector('#top-table tbody tr[data-id]', { timeout: 5_000 })
    assert.equal(await page.isVisible('#sim-banner'), true)
    const ids = await rowIds(page)
    const scan = (await (
      await fetch(`${s.baseUrl}/api/v2/spreads?min_spread=0&min_volume=0`, { headers: s.authHeaders })
    ).json()) as { data: { id: string }[] }
    const known = new Set(scan.data.map((r) => r.id))
    assert.ok(ids.length > 0 && ids.every((id) => known.has(id)), `rows ${ids.join(',')} are scanner pairs`)
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.stream), 'live')

    // The rows change within 10 s (ranks or prices), as the simulator moves books.
    const before = await page.$eval('#top-table tbody', (b) => b.textContent)
    await page.waitForFunction(
      (text) => (globalThis as unknown as PageGlobals).document.querySelector('#top-table tbody')?.textContent !== text,
      before,
      { timeout: 10_000 },
    )

    // Selecting a pair (by keyboard: focus and Enter) draws its chart, both books (crc ok) and the evidence.
    const first = page.locator('#top-table tbody tr[data-id]').first()
    const pairId = await first.getAttribute('data-id')
    await first.focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector(`#top-table tbody tr.selected[data-id="${pairId}"]`, { timeout: 2_000 })
    await page.waitForSelector('#pair:not([hidden])', { timeout: 2_000 })
    await page.waitForSelector('#pair-chart[data-points] canvas', { timeout: 5_000 })
    for (const book of ['#book-a', '#book-b'])
      await page.waitForSelector(`${book}[data-crc="ok"] tbody tr`, { timeout: 5_000 })
    assert.ok((await page.locator('#evidence dt').count()) > 0, 'the match evidence is listed')
    for (const range of ['1w', '1d']) {
      await page.click(`button[data-range="${range}"]`)
      await page.waitForSelector(`button[data-range="${range}"][aria-pressed="true"]`, { timeout: 2_000 })
    }
    // A few seconds of the pair's live spread on the chart before the picture.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    mkdirSync(dirname(SCREENSHOT), { recursive: true })
    await page.screenshot({ path: SCREENSHOT })

    // A venue's sockets dropped (reconnect held by stopping time): its strip turns down or degraded, then ok again.
    for (const venue of ['venuep', 'venuek'] as const)
      await page.waitForSelector(`#venues .venue[data-venue="${venue}"][data-state="ok"]`, { timeout: 5_000 })
    live.pause()
    s.sim.venuek.faults.dropSockets()
    await page.waitForSelector('#venues .venue[data-venue="venuek"]:not([data-state="ok"])', { timeout: 5_000 })
    assert.equal(await page.getAttribute('#venues .venue[data-venue="venuep"]', 'data-state'), 'ok')
    live.resume()
    await page.waitForSelector('#venues .venue[data-venue="venuek"][data-state="ok"]', { timeout: 10_000 })

    // A phone's width: nothing wider than the screen, the rows still there.
    await page.setViewportSize({ width: 390, height: 844 })
    assert.ok(
      await page.evaluate(() => {
        const g = globalThis as unknown as PageGlobals
        return g.document.documentElement.scrollWidth <= g.innerWidth
      }),
      'no horizontal scrolling at 390 px',
    )
    assert.ok((await page.locator('#top-table tbody tr[data-id]').count()) > 0)

    assert.deepEqual(problems, [])
    await context.close()
  })

  test('a pasted key is remembered across a reload; a filter becomes the view', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const { page, problems } = await openPage(context, s)
    await page.waitForSelector('#auth-dialog[open]', { timeout: 5_000 })
    await page.fill('#api-key', s.apiKey as string)
    await page.click('#api-key-save')
    await page.waitForSelector('#top-table tbody tr[data-id]', { timeout: 5_000 })
    await page.reload()
    await page.waitForSelector('#top-table tbody tr[data-id]', { timeout: 5_000 })
    assert.equal(await page.isVisible('#auth-dialog'), false)

    // Search narrows the list to rows whose event or outcome title holds the words.
    const word = (await page.$eval('#top-table tbody tr[data-id] td[data-col="event"]', (td) => td.textContent ?? ''))
      .trim()
      .split(/\s+/)[0] as string
    await page.fill('#f-search', word)
    await page.waitForFunction(
      (w) =>
        Array.from(
          (globalThis as unknown as PageGlobals).document.querySelectorAll('#top-table tbody tr[data-id]'),
        ).every((tr) => (tr.textContent ?? '').toLowerCase().includes(w)),
      word.toLowerCase(),
      { timeout: 5_000 },
    )
    // A bad view is refused with its reason shown, and the page goes on.
    await page.fill('#f-search', '')
    await page.fill('#f-min-spread', '20000')
    await page.waitForFunction(
      () => ((globalThis as unknown as PageGlobals).document.querySelector('#view-error')?.textContent ?? '') !== '',
      undefined,
      { timeout: 5_000 },
    )
    await page.fill('#f-min-spread', '')
    await page.waitForSelector('#top-table tbody tr[data-id]', { timeout: 5_000 })
    assert.equal(await page.textContent('#view-error'), '')
    assert.deepEqual(problems, [])
    await context.close()
  })
})

describe('dashboard with AUTH_REQUIRED=false', { skip }, () => {
  test('asks for no key and shows live rows', async () => {
    const s = await startTestService({ questions: 40, auth: 'off', anchorMs: Date.now() })
    const live = new LiveTime(s)
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    try {
      const context = await browser.newContext()
      const { page, problems } = await openPage(context, s)
      await page.waitForSelector('#top-table tbody tr[data-id]', { timeout: 5_000 })
      assert.equal(await page.isVisible('#auth-dialog'), false)
      assert.deepEqual(problems, [])
    } finally {
      live.stop()
      await browser.close()
      await s.close()
    }
  })
})
