import { ladderLevel, rawFair } from './fair.js'
import { groundTruth } from './ground-truth.js'
import { WORLD_CALENDAR_MS } from './calendar.js'
import { SIM_PEERS } from '../peers.js'
import { planQuestions } from './plan.js'
import { Rng } from './random.js'
import type { QuestionSpec } from './templates/index.js'
import type { Contract, Question } from './types.js'
import { DEFAULT_WORLD_OPTIONS, World, type PlannedQuestion, type WorldOptions } from './world.js'

export { DEFAULT_WORLD_OPTIONS, World, type PlannedQuestion, type WorldOptions } from './world.js'

const DAY = 86_400_000

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
