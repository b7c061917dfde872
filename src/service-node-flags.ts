/**
 * The Node/V8 flags the service runs with: `npm start`, the Dockerfile's CMD, and every bench and test that spawns
 * `dist/src/main.js` (test/helpers/processes.ts); test/lifecycle/node-flags.test.ts keeps the three the same.
 *
 * `--max-semi-space-size=64`: a young generation of 64 MiB semi-spaces instead of V8's 16 MiB. At the venues' real
 * size a start and every catalog refresh make gigabytes of short-lived objects (listing pages, book frames, records
 * being mapped); with the default, more of them live through two scavenges and are promoted, and the old generation,
 * about 2 GB there, is collected more often. Measured on a restart at 110,000 questions (docs/SCALE.md): garbage
 * collection 7.0-8.0 s of the start's CPU before, 5.2-5.9 s after; ready in 39.3-42.6 s before, 32.5-34.4 s after. It
 * costs up to 96 MiB more resident memory (two semi-spaces of 64 MiB instead of 16).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64']
