/**
 * The soak's judgement of a run, kept free of I/O so a unit test can hold it to its word.
 *
 * A leak is a level that keeps climbing under a load that does not change, so a series is judged on the samples
 * after the warm-up (the first 2 minutes, or 20% of a shorter run: the service fills its caches, books and pools
 * then), split into quarters by time: it is flat when the mean of the last quarter is within `tolerance` (10%) of
 * the mean of the first, and the highest sample of the last quarter within `tolerance` of the highest of the first
 * (peaks compared with peaks, so a heap's garbage-collection sawtooth is not read as growth). An absolute `slack`
 * serves small counts (a few handles more after a reconnect are 10% of 30).
 */
export interface Sample {
  /** Milliseconds since the soak started. */
  readonly atMs: number
  readonly values: Readonly<Record<string, number>>
}

export interface FlatRule {
  readonly series: string
  /** Largest allowed growth, as a fraction of the first quarter's level (0.1 = 10%). */
  readonly tolerance: number
  /** Growth below this many units always passes (for small counts such as handles). */
  readonly slack?: number
  /**
   * Compare the quarters' highest samples too (default true). Off for a sampled heap: where a scrape lands in the
   * collector's sawtooth decides its peak, so the live heap after a full collection judges it instead (LiveHeap).
   */
  readonly peaks?: boolean
}

/** The service's heap after a forced full collection, at the end of the warm-up and at the end of the run. */
export interface LiveHeap {
  readonly atWarmUpMiB: number
  readonly atEndMiB: number
  /** Largest allowed growth, as a fraction (0.1 = 10%). */
  readonly tolerance: number
}

export interface CeilingRule {
  readonly series: string
  /** Every post-warm-up sample at or below this. */
  readonly max: number
  /**
   * Judge only samples whose `series` is at most `max` (e.g. the CPU other processes took from the machine: a
   * latency ceiling measured while someone else's tests saturate a shared VM judges them, not the service). When no
   * sample qualifies the rule is reported as not judged and does not fail the run.
   */
  readonly onlyWhen?: { readonly series: string; readonly max: number; readonly what: string }
}

export interface SeriesJudgement {
  readonly series: string
  readonly kind: 'flat' | 'ceiling'
  /** How it was judged, in a few words (the report's column). */
  readonly judgedBy: string
  readonly pass: boolean
  /** No sample met the rule's condition (CeilingRule.onlyWhen): passed without a judgement, said in `detail`. */
  readonly unjudged?: boolean
  /** What was compared, in words with the figures. */
  readonly detail: string
  readonly firstQuarterMean?: number
  readonly lastQuarterMean?: number
  readonly firstQuarterMax?: number
  readonly lastQuarterMax?: number
  readonly max?: number
}

export interface Verdict {
  readonly pass: boolean
  readonly warmUpMs: number
  readonly judged: number
  readonly series: readonly SeriesJudgement[]
  readonly reasons: readonly string[]
}

export const WARM_UP_MAX_MS = 120_000
export const WARM_UP_SHARE = 0.2

/** The first 2 minutes, or 20% of a run shorter than 10 minutes. */
export function warmUpMs(durationMs: number): number {
  return Math.min(WARM_UP_MAX_MS, durationMs * WARM_UP_SHARE)
}

/** Post-warm-up samples that carry `series` (a sample without it, e.g. a store process not found, is skipped). */
function judgedValues(samples: readonly Sample[], series: string, fromMs: number): { atMs: number; v: number }[] {
  return samples
    .filter((s) => s.atMs >= fromMs && Number.isFinite(s.values[series]))
    .map((s) => ({ atMs: s.atMs, v: s.values[series] as number }))
}

const QUARTERS = 'last quarter vs first quarter'

const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length

/** The samples in the first and in the last quarter of the judged span, by time. */
export function quarters<T extends { atMs: number }>(points: readonly T[]): { first: T[]; last: T[] } {
  if (points.length === 0) return { first: [], last: [] }
  const start = (points[0] as T).atMs
  const end = (points[points.length - 1] as T).atMs
  const q = (end - start) / 4
  const first = points.filter((p) => p.atMs <= start + q)
  const last = points.filter((p) => p.atMs >= end - q)
  return { first, last }
}

export function judgeFlat(samples: readonly Sample[], rule: FlatRule, fromMs: number): SeriesJudgement {
  const points = judgedValues(samples, rule.series, fromMs)
  if (points.length < 4)
    return {
      series: rule.series,
      kind: 'flat',
      judgedBy: QUARTERS,
      pass: false,
      detail: `only ${points.length} samples after the warm-up (4 needed)`,
    }
  const { first, last } = quarters(points)
  const firstMean = mean(first.map((p) => p.v))
  const lastMean = mean(last.map((p) => p.v))
  const firstMax = Math.max(...first.map((p) => p.v))
  const lastMax = Math.max(...last.map((p) => p.v))
  const allowed = (base: number): number => Math.max(base * rule.tolerance, rule.slack ?? 0)
  const meanOk = lastMean - firstMean <= allowed(firstMean)
  const maxOk = rule.peaks === false || lastMax - firstMax <= allowed(firstMax)
  const pct = (a: number, b: number): string => `${(((b - a) / a) * 100).toFixed(1)}%`
  return {
    series: rule.series,
    kind: 'flat',
    judgedBy: QUARTERS,
    pass: meanOk && maxOk,
    detail: `mean ${fmt(firstMean)} → ${fmt(lastMean)} (${pct(firstMean, lastMean)}), max ${fmt(firstMax)} → ${fmt(lastMax)} (${pct(firstMax, lastMax)}${rule.peaks === false ? ', not judged' : ''}); allowed +${rule.tolerance * 100}%${rule.slack === undefined ? '' : ` or +${rule.slack}`}`,
    firstQuarterMean: firstMean,
    lastQuarterMean: lastMean,
    firstQuarterMax: firstMax,
    lastQuarterMax: lastMax,
  }
}

export function judgeCeiling(samples: readonly Sample[], rule: CeilingRule, fromMs: number): SeriesJudgement {
  const all = judgedValues(samples, rule.series, fromMs)
  if (all.length === 0)
    return {
      series: rule.series,
      kind: 'ceiling',
      judgedBy: 'ceiling',
      pass: false,
      detail: 'no sample after the warm-up',
    }
  const cond = rule.onlyWhen
  const qualifies = (atMs: number): boolean => {
    if (cond === undefined) return true
    const c = samples.find((s) => s.atMs === atMs)?.values[cond.series]
    return c !== undefined && Number.isFinite(c) && c <= cond.max
  }
  const points = all.filter((p) => qualifies(p.atMs))
  const maxAll = Math.max(...all.map((p) => p.v))
  const scope = cond === undefined ? '' : ` over the ${points.length} of ${all.length} samples with ${cond.what}`
  const everyMax = cond === undefined ? '' : `; max of all ${all.length}: ${fmt(maxAll)}`
  if (points.length === 0)
    return {
      series: rule.series,
      kind: 'ceiling',
      judgedBy: 'ceiling',
      pass: true,
      unjudged: true,
      detail: `not judged: no sample with ${cond?.what ?? ''} (max of all ${all.length}: ${fmt(maxAll)}, limit ${fmt(rule.max)})`,
      max: maxAll,
    }
  const max = Math.max(...points.map((p) => p.v))
  return {
    series: rule.series,
    kind: 'ceiling',
    judgedBy: 'ceiling',
    pass: max <= rule.max,
    detail: `max ${fmt(max)}${scope} (limit ${fmt(rule.max)})${everyMax}`,
    max,
  }
}

export function judgeLiveHeap(h: LiveHeap): SeriesJudgement {
  const growth = (h.atEndMiB - h.atWarmUpMiB) / h.atWarmUpMiB
  return {
    series: 'liveHeapMiB',
    kind: 'flat',
    judgedBy: 'after a full collection: end vs end of the warm-up',
    pass: growth <= h.tolerance,
    detail: `heap after a full collection ${fmt(h.atWarmUpMiB)} MiB at the end of the warm-up → ${fmt(h.atEndMiB)} MiB at the end (${(growth * 100).toFixed(1)}%); allowed +${h.tolerance * 100}%`,
  }
}

export interface VerdictInput {
  readonly samples: readonly Sample[]
  readonly durationMs: number
  readonly flat: readonly FlatRule[]
  readonly ceilings: readonly CeilingRule[]
  /** Undefined when it could not be measured: reported as a failure (the heap's leak check is this one). */
  readonly liveHeap?: LiveHeap
  /** Log lines at level error or fatal (≥ 50): the soak allows none. */
  readonly errorLines: number
  /** Anything else that fails the run outright (the service died, no load got through), in words. */
  readonly failures: readonly string[]
}

export function judge(input: VerdictInput): Verdict {
  const from = warmUpMs(input.durationMs)
  const series = [
    ...input.flat.map((r) => judgeFlat(input.samples, r, from)),
    ...input.ceilings.map((r) => judgeCeiling(input.samples, r, from)),
    ...(input.liveHeap === undefined ? [] : [judgeLiveHeap(input.liveHeap)]),
  ]
  const reasons = [
    ...series.filter((s) => !s.pass).map((s) => `${s.series}: ${s.detail}`),
    ...(input.errorLines > 0 ? [`${input.errorLines} error lines in the service's log`] : []),
    ...input.failures,
  ]
  return {
    pass: reasons.length === 0,
    warmUpMs: from,
    judged: input.samples.filter((s) => s.atMs >= from).length,
    series,
    reasons,
  }
}

function fmt(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(1) : x.toFixed(3)
}
