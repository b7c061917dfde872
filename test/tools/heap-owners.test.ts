import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { writeHeapSnapshot } from 'node:v8'
import { dominators, SnapshotGraph } from '../../tools/heap/snapshot-graph.js'

/**
 * tools/heap-owners.ts reads who holds the heap from a snapshot's dominator tree. Checked on a snapshot of this
 * process holding a known structure: an owner retains what only it reaches, and not what another owner reaches too.
 */
class HeapOwnerProbe {
  /** 200,000 distinct objects: ~6 MB that only this owner reaches. */
  readonly own = Array.from({ length: 200_000 }, (_, i) => ({ i }))
  /** Also held by `sharedWith`: dominated by neither. */
  readonly shared: readonly { j: number }[]
  constructor(shared: readonly { j: number }[]) {
    this.shared = shared
  }
}

test('an owner retains what only it reaches, not what it shares', () => {
  const shared = Array.from({ length: 100_000 }, (_, j) => ({ j }))
  const probe = new HeapOwnerProbe(shared)
  const sharedWith = { shared }
  const dir = mkdtempSync(join(tmpdir(), 'heap-owners-'))
  try {
    const file = writeHeapSnapshot(join(dir, 'probe.heapsnapshot'))
    const g = new SnapshotGraph(file)
    const d = dominators(g)
    const at = [...d.order.subarray(0, d.reachable)].findIndex(
      (n) => g.type(n) === 'object' && g.name(n) === 'HeapOwnerProbe',
    )
    assert.ok(at >= 0, 'the probe object is in the snapshot')
    // An array of exactly `length` elements (its last element edge is [length - 1]).
    const arrayOf = (length: number) =>
      [...d.order.subarray(0, d.reachable)].findIndex((n) => {
        if (g.type(n) !== 'object' || g.name(n) !== 'Array') return false
        let last = false
        for (let e = g.firstEdge[n] as number; e < (g.firstEdge[n + 1] as number); e++) {
          if (g.edgeName(e) === `[${length}]`) return false
          if (g.edgeName(e) === `[${length - 1}]`) last = true
        }
        return last
      })
    const ownAt = arrayOf(200_000)
    const sharedAt = arrayOf(100_000)
    assert.ok(ownAt >= 0 && sharedAt >= 0, 'both lists are in the snapshot')
    const own = d.retained[ownAt] as number
    const probeRetained = d.retained[at] as number
    assert.ok(own >= 200_000 * 16, `the own list retains its 200,000 objects: ${own} B`)
    assert.equal(d.idom[ownAt], at, 'the probe dominates its own list')
    assert.ok(
      probeRetained >= own && probeRetained < own + 1024,
      `the probe retains its own list only: ${probeRetained} B`,
    )
    // Removing the probe alone would not free the shared list: the probe is not its dominator.
    assert.notEqual(d.idom[sharedAt], at)
    assert.ok((d.retained[sharedAt] as number) >= 100_000 * 16)
    assert.ok(probe.own.length + sharedWith.shared.length > 0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A shape whose one field holds a double: each instance keeps its number boxed (what `--held-by number` finds). */
class HeldByProbe {
  constructor(readonly heldByProbePrice: number) {}
}

test('--held-by names the field of the shape that points at the objects of a kind, with their count', () => {
  const probes = Array.from({ length: 30_000 }, (_, i) => new HeldByProbe(0.5 + i / 1e6))
  const dir = mkdtempSync(join(tmpdir(), 'heap-owners-'))
  try {
    const file = writeHeapSnapshot(join(dir, 'probe.heapsnapshot'))
    const cli = join(dirname(fileURLToPath(import.meta.url)), '../../tools/heap-owners.js')
    const out = execFileSync(process.execPath, [cli, file, '--held-by', 'number'], { encoding: 'utf8' })
    const section = out.slice(out.indexOf('What points at number'))
    const line = section.split('\n').find((l) => l.includes('.heldByProbePrice'))
    assert.ok(line !== undefined, `the probe's field is listed:\n${section}`)
    assert.match(line, /×30000 object:HeldByProbe\{heldByProbePrice/)
    assert.ok(probes.length > 0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
