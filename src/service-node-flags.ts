/**
 * The Node/V8 flags the service runs with: `npm start`, the Dockerfile's CMD, and every bench and test that spawns
 * `dist/src/main.js` (test/helpers/processes.ts); test/lifecycle/node-flags.test.ts keeps the three the same.
 *
 * `--max-semi-space-size=32`: young-generation semi-spaces of 32 MiB instead of V8's 16 MiB. At the venues' real size
 * a start and every catalog refresh make gigabytes of short-lived objects (listing pages, book frames, records being
 * mapped); with the default most of the collector's time goes to scavenges, and more objects are promoted into an old
 * generation of about 2 GB. Measured with --trace-gc at 110,000 questions (docs/SCALE.md), over two minutes of steady
 * state after a restart: 853 scavenges taking 9.7 s with the default (pauses p50 10.1 ms, p99 40.4 ms, worst 65 ms),
 * 246 taking 3.2 s with 32 MiB (p50 12.8 ms, p99 33.5 ms, worst 42 ms), 169 taking 2.6 s with 64 MiB (p50 14.2 ms,
 * p99 55.1 ms, worst 58 ms): 32 MiB takes two thirds of the collector's time off without longer worst pauses, where
 * 64 MiB lengthened them. A restart's scavenges took 6.0 s with the default and 4.7 s with 32 MiB. It costs up to
 * 32 MiB more resident memory (two semi-spaces of 32 MiB instead of 16).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32']
