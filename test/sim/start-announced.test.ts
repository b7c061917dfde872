import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startAnnouncedSimulator } from '../../src/sim/start-announced.js'
import { recordedLog } from '../helpers/recorded-log.js'

/**
 * What an operator reads while `npm start` builds the simulated world: what is being built, before the seconds it
 * takes, then how long it took and what the simulator serves (the same description /readyz gives).
 */
const config = loadConfig({ env: { NODE_ENV: 'test' } })

test('the world is announced with its size before it is built, then timed and described', async () => {
  const r = recordedLog()
  const sim = await startAnnouncedSimulator(
    { ...config.sim, questions: 300, venuekOnlyLadders: 3, wallets: 5, venuekAuth: false },
    new SimulatedClock(Date.UTC(2026, 0, 5)),
    r.log,
  )
  try {
    assert.deepEqual(r.problems(), [])
    const [before, done, ...rest] = r.entries()
    assert.deepEqual(rest, [])
    assert.deepEqual(
      { msg: before?.msg, seed: before?.seed, questions: before?.questions, ladders: before?.venuek_only_ladders },
      {
        msg: 'building the simulated world (300 questions and 3 venuek-only ladder events) and starting the venue simulator',
        seed: config.sim.seed,
        questions: 300,
        ladders: 3,
      },
    )
    assert.deepEqual(
      { msg: done?.msg, ms: typeof done?.ms, data_source: done?.data_source },
      { msg: 'venue simulator ready', ms: 'number', data_source: sim.description },
    )
  } finally {
    await sim.close()
  }
})
