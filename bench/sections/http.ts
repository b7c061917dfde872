import { benchHttp, type HttpReport } from '../http.bench.js'
import { SITEMAP_SCENARIO, THROUGHPUT_SCENARIOS } from '../http/scenarios.js'
import { httpLead, httpMethod, httpRows } from '../http-report.js'
import { log, measuredLead, type SectionDef } from './section.js'

/**
 * Issue 3: hot reads through the service against bare uWS with the same bytes. The same service run also
 * measures the throughput scenarios of other sections selected in this invocation (ThroughputScenario.section:
 * the proxies' cached candlestick read), so a full run starts the 33,000-question world once for all of them.
 */
let shared: { key: string; report: Promise<HttpReport> } | undefined

/** The service run at the simulator's default rates with every scenario the selected sections report. */
export function defaultRateRun(selected: ReadonlySet<string>): Promise<HttpReport> {
  const scenarios = THROUGHPUT_SCENARIOS.filter((s) => selected.has(s.section ?? 'http'))
  const key = scenarios.map((s) => s.name).join('|')
  if (shared?.key !== key) {
    log(
      `HTTP: service vs bare uWS, same bytes (separate simulator, service, bare and wrk processes): ${scenarios.map((s) => s.name).join(', ')}`,
    )
    shared = { key, report: benchHttp({ scenarios, sitemap: selected.has('http') ? SITEMAP_SCENARIO : null }) }
  }
  return shared.report
}

export const httpSection: SectionDef = {
  name: 'http',
  title: 'HTTP (issue 3)',
  // Explained below its table (the text depends on the run's pinning and durations).
  method: [],
  async run(selected) {
    const report = await defaultRateRun(selected)
    return {
      lead: [measuredLead(), '', ...httpLead(report)],
      rows: httpRows(report, 'http'),
      method: ["How it's measured:", '', ...httpMethod(report)],
    }
  },
}
