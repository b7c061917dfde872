import { benchFrameToQuote } from './ingest.bench.js'

// One fresh process per run: run-to-run variance on shared VMs is mostly between processes.
process.stdout.write(JSON.stringify(await benchFrameToQuote()))
