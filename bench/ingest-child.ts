import { benchFrameToQuote } from './ingest.bench.js'

// One fresh process per run: run-to-run variance on shared VMs is mostly between processes.
benchFrameToQuote().then((r) => process.stdout.write(JSON.stringify(r)))
