import { ladderLevel, rawFair } from './fair.js'
import { groundTruth } from './ground-truth.js'
import { lifecycleAt, WORLD_CALENDAR_MS } from './calendar.js'
import { SIM_PEERS } from '../peers.js'
import { Rng } from './random.js'
import { withPlaceholders } from './shapes/placeholders.js'
import { TEMPLATES, type BuildContext, type QuestionSpec, type Template } from './templates/index.js'
import type { Contract, Lifecycle, Question } from './types.js'
import { DEFAULT_WORLD_OPTIONS, World, type PlannedQuestion, type WorldOptions } from './world.js'

export { DEFAULT_WORLD_OPTIONS, World, type PlannedQuestion, type WorldOptions } from './world.js'

const DAY = 86_400_000
const HOUR = 3_600_000

/**
 * Builds the whole world from `options`. Deterministic: the same options give the same world, identifiers,
 * books, wallets, activity and ground truth. The questions' identifiers, titles and own dates do not depend on
 * `anchorMs`: they are laid out on the world's calendar (calendar.ts); the anchor decides which of them have ended
 * by then, and the history, the books and the prices (paths of time) are laid out around it.
 */
export function generateWorld(partial: Partial<WorldOptions> & { anchorMs: number }): World {
  const options: WorldOptions = {
    ...DEFAULT_WORLD_OPTIONS,
    ...partial,
    calendarMs: partial.calendarMs ?? WORLD_CALENDAR_MS,
  }
  const world = new World(options)
  const rng = new Rng(options.seed)
  listWorld(world, rng)
  // Each peer of the sim list (peers.ts) in turn: the books share one stream, each history has its own.
  const books = rng.fork(3)
  for (const peer of SIM_PEERS) peer.world.buildBooks(world, books)
  SIM_PEERS.forEach((peer, i) => peer.world.buildHistory(world, rng.fork(4 + i)))
  return world
}

/**
 * Plans the questions, lists them on the venues (the peers of the sim list, each listing its part of a question's
 * spec, in list order, from one stream) and writes the ground truth. The plans (and the wording closures
 * they hold) are garbage once this returns, before the history fills the heap.
 */
function listWorld(world: World, rng: Rng): void {
  const specs = planQuestions(rng.fork(1), world.options)
  const listRng = rng.fork(2)
  for (const planned of specs) {
    const q = makeQuestion(planned, listRng)
    world.questions.push(q)
    world.questionsById.set(q.id, q)
    SIM_PEERS.forEach((peer, i) => {
      if (planned.listedOn[i] === true) peer.world.list(world, q, planned.spec, listRng)
    })
  }
  for (const peer of SIM_PEERS) peer.world.addOwnListings(world)
  // The world pairs the first two venues of the list (`listedOn`).
  const [a, b] = SIM_PEERS
  world.truth = groundTruth(world, specs, [a.world.truthLeg, b.world.truthLeg])
}

// --------------------------------------------------------------------------------------------- planning

function pickTemplate(rng: Rng): Template<unknown> {
  const total = TEMPLATES.reduce((s, t) => s + t.weight, 0)
  let x = rng.next() * total
  for (const t of TEMPLATES) {
    x -= t.weight
    if (x <= 0) return t
  }
  return TEMPLATES[TEMPLATES.length - 1] as Template<unknown>
}

function planQuestions(rng: Rng, options: WorldOptions): PlannedQuestion[] {
  const planned: PlannedQuestion[] = []
  const keys = new Set<string>()
  // Laid out around the calendar's instant, not the start: the plan (and every identifier drawn after it) is the
  // seed's. Only afterwards does the start decide which questions have ended by then (`aged`).
  const anchor = options.calendarMs ?? options.anchorMs
  let attempts = 0
  while (planned.length < options.questions && attempts < options.questions * 20) {
    attempts++
    const template = pickTemplate(rng)
    const seed = rng.int(1, 2 ** 31 - 1)
    const qr = new Rng(seed)
    const params = template.pick(qr)
    const roll = rng.next()
    const lifecycle: Lifecycle = roll < 0.78 ? 'active' : roll < 0.87 ? 'closed' : 'resolved'
    const [h0, h1] = template.horizonDays
    let endTime: number
    if (lifecycle === 'active') endTime = anchor + (h0 + rng.next() * (h1 - h0)) * DAY
    else if (lifecycle === 'closed') endTime = anchor - (0.05 + rng.next() * 2.5) * DAY
    else endTime = anchor - (2 + rng.next() * 80) * DAY
    // Venues settle at a fixed time of day: 16:00 UTC on the chosen date.
    endTime = Math.floor(endTime / DAY) * DAY + 16 * HOUR
    if (lifecycle === 'active' && endTime <= anchor) endTime += DAY
    if (lifecycle !== 'active' && endTime >= anchor) endTime -= DAY
    const createdAt = Math.min(anchor - HOUR, endTime - (h1 * 0.5 + rng.next() * h1) * DAY, endTime - DAY)
    const ctx: BuildContext = { lifecycle, createdAt }
    if (keys.has(template.key(params, endTime, ctx))) continue
    const spec = withPlaceholders(template.build(params, endTime, qr.fork(7), ctx), qr.fork(9))
    keys.add(spec.key)
    const resolvedAt =
      lifecycle === 'resolved' ? Math.min(anchor - HOUR, endTime + (1 + rng.next() * 30) * HOUR) : undefined
    const listing = rng.next()
    const both = listing < options.shareBoth
    const onFirst = both || listing < options.shareBoth + (1 - options.shareBoth) / 2
    const listedOn = [onFirst, both || !onFirst] as const
    const id = `q${String(planned.length + 1).padStart(5, '0')}`
    planned.push({
      id,
      seed,
      spec,
      lifecycle,
      createdAt,
      resolvedAt,
      listedOn,
      decoyOf: undefined,
      decoyReason: undefined,
    })

    // A decoy: a look-alike that is another question (the template's own kind of look-alike, else the same
    // wording at another date), listed only on the venue the original is NOT on (or on the second when the original
    // is on both), so a careless matcher pairs the wrong question.
    if (lifecycle === 'active' && rng.next() < options.decoyRate && planned.length < options.questions) {
      const decoy = planDecoy(template, params, seed, endTime, anchor, rng, ctx)
      // A decoy is still trading: a look-alike ending before now is no decoy.
      if (decoy === undefined || decoy.spec.endTime <= anchor + HOUR || keys.has(decoy.spec.key)) continue
      keys.add(decoy.spec.key)
      planned.push({
        id: `q${String(planned.length + 1).padStart(5, '0')}`,
        seed: seed ^ 0x5bd1e995,
        spec: decoy.spec,
        lifecycle: 'active',
        createdAt: decoy.createdAt,
        resolvedAt: undefined,
        listedOn: [!onFirst, onFirst],
        decoyOf: id,
        decoyReason: decoy.reason,
      })
    }
  }
  return planned.map((p) => aged(p, anchor, options.anchorMs))
}

/** The planned question as it stands at the start (calendar.ts): ended by then, it is closed or resolved. */
function aged(p: PlannedQuestion, calendarMs: number, anchorMs: number): PlannedQuestion {
  const at = lifecycleAt(
    { lifecycle: p.lifecycle, endTime: p.spec.endTime, resolvedAt: p.resolvedAt, seed: p.seed },
    calendarMs,
    anchorMs,
  )
  return at.lifecycle === p.lifecycle ? p : { ...p, lifecycle: at.lifecycle, resolvedAt: at.resolvedAt }
}

/** The template's own look-alike (60% of decoys where it has one), else the same question at another date. */
function planDecoy(
  template: Template<unknown>,
  params: unknown,
  seed: number,
  endTime: number,
  anchor: number,
  rng: Rng,
  ctx: BuildContext,
): { spec: QuestionSpec; reason: string; createdAt: number } | undefined {
  const own =
    template.decoy !== undefined && rng.chance(0.6)
      ? template.decoy(params, endTime, new Rng(seed).fork(10), ctx)
      : undefined
  if (own !== undefined)
    return {
      spec: withPlaceholders(own.spec, new Rng(seed).fork(11)),
      reason: own.reason,
      createdAt: Math.min(ctx.createdAt, own.spec.endTime - DAY),
    }
  const shift = template.decoyShiftDays * DAY * (rng.chance(0.5) ? 1 : -1)
  const decoyEnd = endTime + shift > anchor + HOUR ? endTime + shift : endTime + Math.abs(shift)
  const createdAt = Math.min(anchor - HOUR, decoyEnd - 30 * DAY)
  const spec = template.build(params, decoyEnd, new Rng(seed).fork(8), { lifecycle: 'active', createdAt })
  return { spec: withPlaceholders(spec, new Rng(seed).fork(11)), reason: 'another date', createdAt }
}

function makeQuestion(p: PlannedQuestion, rng: Rng): Question {
  const spec = p.spec
  const partial: Question = {
    id: p.id,
    seed: p.seed,
    category: spec.category,
    kind: spec.kind,
    lifecycle: p.lifecycle,
    subject: spec.subject,
    createdAt: p.createdAt,
    endTime: spec.endTime,
    resolvedAt: p.resolvedAt,
    volatility: 0.5 + rng.next() * 0.8,
    contracts: [],
    model: spec.model,
    decoyOf: p.decoyOf,
  }
  const winners =
    p.resolvedAt === undefined
      ? undefined
      : drawWinners(partial, spec, p.resolvedAt - 3 * DAY, new Rng(p.seed ^ 0x1234567))
  const contracts: Contract[] = spec.contracts.map((c, index) => ({
    key: `${p.id}:${index}`,
    questionId: p.id,
    index,
    label: c.label,
    threshold: c.threshold,
    won: winners?.[index],
    halfSpread: Number((0.004 + rng.next() * 0.02).toFixed(4)),
    depthSize: Math.round(rng.logNormal(350, 0.8)),
    tradeIntervalSec: Math.round(rng.logNormal(900, 1)),
    // A placeholder never trades: its book stays empty.
    walks: c.placeholder !== true,
  }))
  return { ...partial, contracts }
}

function drawWinners(q: Question, spec: QuestionSpec, t: number, rng: Rng): boolean[] {
  const n = spec.contracts.length
  const probe = {
    ...q,
    contracts: spec.contracts.map((c, i) => ({ key: `${q.id}:${i}`, threshold: c.threshold }) as Contract),
  }
  const m = q.model
  if (m.kind === 'binary') {
    const yes = rng.next() < rawFair(probe, 0, t)
    return n === 2 ? [yes, !yes] : [yes]
  }
  if (m.kind === 'ladder') {
    // One draw of the underlying decides every strike, so thresholds and ranges resolve consistently.
    const x = ladderLevel(probe, m.logLevel, m.sigma, t) + m.sigma * rng.normal()
    return spec.contracts.map((c, i) => {
      const b = m.bounds?.[i]
      if (b !== undefined) return x > Math.log(b[0]) && x < Math.log(b[1])
      return x > Math.log(c.threshold as number)
    })
  }
  if (m.kind === 'deadline') {
    // Happened before deadline i with the path's probability: one uniform draw keeps later deadlines YES too.
    const u = rng.next()
    return spec.contracts.map((_, i) => u < rawFair(probe, i, t))
  }
  // A placeholder never wins (its fair value is only clamped up to the live minimum).
  const probs = spec.contracts.map((c, i) => (c.placeholder === true ? 0 : rawFair(probe, i, t)))
  let x = rng.next() * probs.reduce((s, v) => s + v, 0)
  let winner = n - 1
  for (let i = 0; i < n; i++) {
    x -= probs[i] as number
    if (x <= 0) {
      winner = i
      break
    }
  }
  return spec.contracts.map((_, i) => i === winner)
}
