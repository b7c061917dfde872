import { lifecycleAt } from './calendar.js'
import { hashInts, Rng } from './random.js'
import { withPlaceholders } from './shapes/placeholders.js'
import { TEMPLATES, type BuildContext, type QuestionSpec, type Template } from './templates/index.js'
import type { Lifecycle } from './types.js'
import type { PlannedQuestion, WorldOptions } from './world.js'

/**
 * Planning a generated world (generate.ts lists what this plans): which questions it asks, drawn from the templates
 * by weight, when each opens, ends and resolves, which venues list it, and the decoys beside them.
 */
const DAY = 86_400_000
const HOUR = 3_600_000

function pickTemplate(rng: Rng): Template<unknown> {
  const total = TEMPLATES.reduce((s, t) => s + t.weight, 0)
  let x = rng.next() * total
  for (const t of TEMPLATES) {
    x -= t.weight
    if (x <= 0) return t
  }
  return TEMPLATES[TEMPLATES.length - 1] as Template<unknown>
}

/**
 * The questions of a world, in order: each drawn from a template, with its lifecycle, dates and the venues that list
 * it (`listedOn`), and now and then a decoy after it. Deterministic from `rng` and the options.
 */
export function planQuestions(rng: Rng, options: WorldOptions): PlannedQuestion[] {
  const planned: PlannedQuestion[] = []
  const keys = new Set<string>()
  /** Teams' days taken (Template.occupies). */
  const occupied = new Set<string>()
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
    const takes = template.occupies?.(params, endTime) ?? []
    if (takes.some((t) => occupied.has(t))) continue
    const spec = withPlaceholders(template.build(params, endTime, qr.fork(7), ctx), qr.fork(9))
    // A template that sets its own time of day (an hourly ladder, a match) may land on the anchor's wrong side.
    if (!endsOnItsSide(spec.endTime, lifecycle, anchor)) continue
    keys.add(spec.key)
    for (const t of takes) occupied.add(t)
    const resolvedAt =
      lifecycle === 'resolved' ? Math.min(anchor - HOUR, spec.endTime + (1 + rng.next() * 30) * HOUR) : undefined
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
      groupOf: undefined,
    })
    if (template.siblings !== undefined) {
      const siblings = template.siblings(params, endTime, qr.fork(12), ctx)
      planSiblings(planned, siblings, keys, anchor, options.questions)
    }

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
        groupOf: undefined,
      })
    }
  }
  return planned.map((p) => aged(p, anchor, options.anchorMs))
}

/** Whether a question ending at `endTime` is open at the anchor if it is planned open, and ended if not. */
function endsOnItsSide(endTime: number, lifecycle: Lifecycle, anchor: number): boolean {
  return lifecycle === 'active' ? endTime > anchor : endTime < anchor
}

/**
 * The siblings of the question planned last (`Template.siblings`), each a question after it with its lifecycle and
 * creation: listed where it is, on the venues whose style lists some contract of the sibling (the world's first venue
 * lists the slug style and its second the ticker style, peers.ts); resolved after its own end when it is resolved.
 * A sibling already planned (its key), listed nowhere, or ending on the anchor's other side (an open match's map
 * that had ended by the calendar instant) is left out. They all name the first as their group.
 */
function planSiblings(
  planned: PlannedQuestion[],
  siblings: readonly QuestionSpec[],
  keys: Set<string>,
  anchor: number,
  max: number,
): void {
  const at = planned.length - 1
  const first = planned[at] as PlannedQuestion
  let grouped = false
  siblings.forEach((spec, i) => {
    if (planned.length >= max || keys.has(spec.key) || !endsOnItsSide(spec.endTime, first.lifecycle, anchor)) return
    const listedOn = [
      first.listedOn[0] && spec.contracts.some((c) => c.onSlugs),
      first.listedOn[1] && spec.contracts.some((c) => c.onTickers),
    ] as const
    if (!listedOn[0] && !listedOn[1]) return
    const resolvedAt =
      first.resolvedAt === undefined
        ? undefined
        : Math.min(anchor - HOUR, Math.max(first.resolvedAt, spec.endTime + HOUR))
    if (resolvedAt !== undefined && resolvedAt <= spec.endTime) return
    keys.add(spec.key)
    grouped = true
    planned.push({
      ...first,
      id: `q${String(planned.length + 1).padStart(5, '0')}`,
      // Its own stream for its paths and winners, apart from the first's and every other sibling's.
      seed: hashInts(first.seed, i + 1) % (2 ** 31 - 1) || 1,
      spec,
      resolvedAt,
      listedOn,
      groupOf: first.id,
    })
  })
  if (grouped) planned[at] = { ...first, groupOf: first.id }
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
