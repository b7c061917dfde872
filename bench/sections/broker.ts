import { benchBroker, type HopRun } from '../stream/broker-run.js'
import { LATENCY_CLIENTS, LATENCY_MEASURE_MS } from '../stream/service-run.js'
import { pct } from '../stream/fanout.js'
import { log, measuredLead, OBSERVATION, type Row, type SectionDef } from './section.js'

/**
 * Issue 24's measures: what the broker hop adds to a stream frame's latency, and an edge's CPU per delivered frame
 * (with the broker's message rate, the inputs of README "Capacity"). No targets set by the issue.
 */
const COMMAND = '`node dist/bench/run.js broker`'

export const brokerSection: SectionDef = {
  name: 'broker',
  title: 'Scale-out over NATS (issue 24)',
  method: [
    `- **Broker hop** (\`bench/stream/broker-run.ts\`, ${COMMAND}): a real nats-server (JetStream, file store in a temporary`,
    "  directory), the boosted standalone simulator (as the stream bench's), and the same clients process with",
    `  ${LATENCY_CLIENTS} lean clients, each matched instrument's \`quote\` key held by one, recorded for ${LATENCY_MEASURE_MS / 1000} s, twice: against one`,
    '  process (`ROLE=all`, CPU 0), then against an edge (`ROLE=edge`, no CPU pinning) fed by an ingest (`ROLE=ingest`, CPU 0). The',
    "  edge forwards the ingest's frames unchanged, so `pts` is the ingest's publish time and receive − `pts` covers publish → broker",
    "  → edge → client; the single process's receive − `pts` covers publish → client. CPU from /proc per process; the broker's",
    "  message and byte rates from its monitoring endpoint (`/varz`). Before the clients connect, the serving process's CPU over 5 s",
    '  with the boost on and no client: for the edge, what following the bus costs (replica actors, read models, engine); the',
    "  clients' cost per delivered frame is what the process uses above it, divided by the frames delivered.",
  ],
  async run() {
    log('broker: one process, then ingest + edge over nats-server, same load and clients')
    const { single, split } = await benchBroker(log)
    const ms = (x: number): string => `${x.toFixed(2)} ms`
    const latency = (r: HopRun): string =>
      `receive − pts p50 ${ms(r.summary.recvMinusPts.p50)}, p99 ${ms(r.summary.recvMinusPts.p99)}; venue frame (\`lts\`) → client p50 ${ms(r.summary.recvMinusLts.p50)}, p99 ${ms(r.summary.recvMinusLts.p99)}; ${r.summary.frames.toLocaleString('en-US')} deltas (${Math.round(r.deltasPerSec).toLocaleString('en-US')}/s), seq breaks ${r.summary.seqBreaks}`
    const perFrame = (cores: number, r: HopRun): string => `${((cores * 1e6) / r.deltasPerSec).toFixed(1)} µs`
    const rows: Row[] = [
      {
        measure: `One process: frame published → client (${single.keys.toLocaleString('en-US')} keys)`,
        result: latency(single),
        ...OBSERVATION,
      },
      {
        measure: `Ingest + edge: frame published at the ingest → client of the edge (${split.keys.toLocaleString('en-US')} keys)`,
        result: latency(split),
        ...OBSERVATION,
      },
      {
        measure: 'Added by the broker hop (split − one process, receive − pts)',
        result: `p50 +${ms(split.summary.recvMinusPts.p50 - single.summary.recvMinusPts.p50)}, p99 +${ms(split.summary.recvMinusPts.p99 - single.summary.recvMinusPts.p99)}`,
        ...OBSERVATION,
      },
      {
        measure: 'Edge CPU: following the bus with no client (boost on), and per delivered frame above that',
        result: `${pct(split.servingIdleCores)} of a core with no client; ${perFrame(split.servingCores - split.servingIdleCores, split)} per delivered frame above it (${pct(split.servingCores)} with the clients)`,
        ...OBSERVATION,
      },
      {
        measure: 'The same for the one process (which also ingests); the ingest and nats-server beside the edge',
        result: `one process ${pct(single.servingIdleCores)} with no client, ${perFrame(single.servingCores - single.servingIdleCores, single)} per delivered frame above it; ingest ${pct(split.ingestCores)}, nats-server ${pct(split.brokerCores)}`,
        ...OBSERVATION,
      },
      {
        measure:
          'Broker traffic from the ingest (everything it publishes: frames of the streams edges lease and the venue streams, feed batches)',
        result: `${Math.round(split.brokerInMsgsPerSec).toLocaleString('en-US')} msgs/s in, ${(split.brokerInBytesPerSec / 1e6).toFixed(2)} MB/s; ${Math.round(split.brokerOutMsgsPerSec).toLocaleString('en-US')} msgs/s out (one edge)`,
        ...OBSERVATION,
      },
    ]
    const lead = [
      measuredLead(),
      '',
      `Edge ready ${(split.readyMs / 1000).toFixed(1)} s after its start (catalogs from the object store, books by snapshot request, the stream window read back). CPU busy during the split run: ${split.cpuBusy.map((b, i) => `cpu${i} ${pct(b)}`).join(', ')}; clients ${pct(split.clientsCores)}. Command: ${COMMAND}.`,
    ]
    return { lead, rows }
  },
}
