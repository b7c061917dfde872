/**
 * What the load reads: instruments of matched pairs (the ones the boost moves), taken from the service's own
 * `/api/v2/spreads` records, which name both venues' outcome ids (the stream's quote and book keys are
 * `venuep:<token_id>` and `venuek:<ticker>`).
 */
export interface SoakTargets {
  readonly venuepTokens: readonly string[]
  readonly venuekTickers: readonly string[]
}

export async function findTargets(port: number, apiKey: string): Promise<SoakTargets> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v2/spreads?min_spread=0&min_volume=0`, {
    headers: { 'x-api-key': apiKey },
  })
  if (res.status !== 200) throw new Error(`/api/v2/spreads answered ${res.status}`)
  const body = (await res.json()) as { data: { match: { venuep_outcome_id: string; venuek_outcome_id: string } }[] }
  const venuep = new Set<string>()
  const venuek = new Set<string>()
  for (const r of body.data) {
    venuep.add(r.match.venuep_outcome_id)
    venuek.add(r.match.venuek_outcome_id)
  }
  if (venuep.size === 0 || venuek.size === 0) throw new Error('no matched pair in /api/v2/spreads')
  return { venuepTokens: [...venuep], venuekTickers: [...venuek] }
}
