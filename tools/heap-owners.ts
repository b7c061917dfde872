import { dominators, SnapshotGraph, type Dominators } from './heap/snapshot-graph.js'

/**
 * `npm run heap:owners -- <file.heapsnapshot> [--min MiB] [--depth N] [--class Name] [--held-by kind]`: who holds the
 * heap. Reads a V8
 * heap snapshot as a dominator tree (tools/heap/snapshot-graph.ts) and prints
 *
 * - the owners: the tree from the roots down, every object retaining at least `--min` MiB (default 4), the smaller
 *   ones of each parent summed by kind;
 * - the objects the roots hold directly (shared by several owners, as catalog records are), grouped by shape;
 * - the heap by kind (arrays, plain objects by shape, strings, boxed numbers, hash tables);
 * - with `--class Name`, what each instance of that class retains, by kind;
 * - with `--held-by kind` (a kind as the heap by kind names it: `number`, `string`, `object:Array{__proto__}`), which
 *   field of which shape points at the objects of that kind, by their bytes: how the 2.1 million boxed doubles of the
 *   published quotes were found (docs/SCALE.md).
 *
 * Take the snapshot of a running service with `node --heapsnapshot-signal=SIGUSR2 dist/src/main.js` and
 * `kill -USR2 <pid>` (the file lands in the working directory; the service stops while it writes). The npm script
 * gives node room: the graph of a 2 GB heap takes a few GB.
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}

const MiB = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

function main(): void {
  const file = process.argv[2]
  if (file === undefined || file.startsWith('--')) {
    console.error(
      'usage: npm run heap:owners -- <file.heapsnapshot> [--min MiB] [--depth N] [--class Name] [--held-by kind]',
    )
    process.exit(2)
  }
  const minBytes = Number(arg('min') ?? 4) * 2 ** 20
  const maxDepth = Number(arg('depth') ?? 8)
  const g = new SnapshotGraph(file)
  const d = dominators(g)
  const children = childrenOf(d)
  const node = (i: number) => d.order[i] as number
  const label = (i: number) => `${g.type(node(i))}:${g.name(node(i)).slice(0, 60)}`
  const via = (parent: number, child: number) => {
    const p = node(parent)
    const c = node(child)
    for (let e = g.firstEdge[p] as number; e < (g.firstEdge[p + 1] as number); e++)
      if (g.edgeTarget(e) === c) return g.edgeName(e)
    return '?'
  }

  console.log(`${file}: ${g.nodeCount} nodes, ${d.reachable} reachable, ${MiB(d.retained[d.root] as number)} MiB live`)
  console.log(`\nOwners (retaining ≥ ${MiB(minBytes)} MiB; MiB retained, the edge from the owner, the object):`)
  const show = (i: number, depth: number) => {
    const kids = children.get(i) ?? []
    const big = kids.filter((k) => (d.retained[k] as number) >= minBytes)
    big.sort((a, b) => (d.retained[b] as number) - (d.retained[a] as number))
    for (const k of big) {
      console.log(`${'  '.repeat(depth)}${MiB(d.retained[k] as number)} ${via(i, k)} -> ${label(k)}`)
      if (depth < maxDepth) show(k, depth + 1)
    }
    const small = new Map<string, number>()
    let smallSum = 0
    for (const k of kids) {
      if ((d.retained[k] as number) >= minBytes) continue
      smallSum += d.retained[k] as number
      small.set(label(k), (small.get(label(k)) ?? 0) + (d.retained[k] as number))
    }
    if (smallSum >= minBytes && i !== d.root) {
      const top = [...small].sort((a, b) => b[1] - a[1]).slice(0, 4)
      const kinds = top.map(([l, s]) => `${l} ${MiB(s)}`).join('; ')
      console.log(`${'  '.repeat(depth)}${MiB(smallSum)} in ${kids.length - big.length} smaller: ${kinds}`)
    }
  }
  show(d.root, 0)

  console.log('\nHeld by the roots directly (shared by several owners), by shape:')
  const shared = new Map<string, { count: number; retained: number }>()
  for (const k of children.get(d.root) ?? []) {
    const s = `${g.type(node(k))}:${g.shape(node(k))}`
    const e = shared.get(s) ?? { count: 0, retained: 0 }
    e.count++
    e.retained += d.retained[k] as number
    shared.set(s, e)
  }
  for (const [s, e] of [...shared].sort((a, b) => b[1].retained - a[1].retained).slice(0, 25))
    console.log(`  ${MiB(e.retained)} MiB ×${e.count} ${s}`)

  console.log('\nThe heap by kind (self sizes):')
  const kindOf = (n: number) => {
    const t = g.type(n)
    return t === 'object' ? `object:${g.shape(n, 3)}` : t === 'array' || t === 'native' ? `${t}:${g.name(n)}` : t
  }
  const kinds = new Map<string, { count: number; bytes: number }>()
  for (let i = 0; i < d.reachable; i++) {
    const n = node(i)
    const k = kindOf(n)
    const e = kinds.get(k) ?? { count: 0, bytes: 0 }
    e.count++
    e.bytes += g.selfSize(n)
    kinds.set(k, e)
  }
  for (const [k, e] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 30))
    console.log(`  ${MiB(e.bytes)} MiB ×${e.count} ${k} (${(e.bytes / e.count).toFixed(0)} B each)`)

  const heldBy = arg('held-by')
  if (heldBy !== undefined) {
    // Each object of the kind counted once, under the first field found pointing at it.
    console.log(`\nWhat points at ${heldBy} (MiB of the objects pointed at, how many, the holder's kind and field):`)
    const counted = new Uint8Array(g.nodeCount)
    const holders = new Map<string, { count: number; bytes: number }>()
    for (let n = 0; n < g.nodeCount; n++) {
      for (let e = g.firstEdge[n] as number; e < (g.firstEdge[n + 1] as number); e++) {
        const to = g.edgeTarget(e)
        if (counted[to] === 1 || !g.holds(e) || kindOf(to) !== heldBy) continue
        counted[to] = 1
        const name = g.edgeName(e)
        const key = `${kindOf(n)} .${name.startsWith('[') ? '[i]' : name}`
        const h = holders.get(key) ?? { count: 0, bytes: 0 }
        h.count++
        h.bytes += g.selfSize(to)
        holders.set(key, h)
      }
    }
    for (const [k, h] of [...holders].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25))
      console.log(`  ${MiB(h.bytes)} MiB ×${h.count} ${k}`)
  }

  const cls = arg('class')
  if (cls !== undefined) {
    for (let i = 0; i < d.reachable; i++) {
      if (g.type(node(i)) !== 'object' || g.name(node(i)) !== cls) continue
      const byKind = new Map<string, { count: number; bytes: number }>()
      const stack = [i]
      for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
        const n = node(x)
        const t = g.type(n)
        const k = t === 'object' || t === 'array' ? `${t}:${g.name(n).slice(0, 40)}` : t
        const e = byKind.get(k) ?? { count: 0, bytes: 0 }
        e.count++
        e.bytes += g.selfSize(n)
        byKind.set(k, e)
        for (const c of children.get(x) ?? []) stack.push(c)
      }
      console.log(`\n${cls} retains ${MiB(d.retained[i] as number)} MiB:`)
      for (const [k, e] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 12))
        console.log(`  ${MiB(e.bytes)} MiB ×${e.count} ${k} (${(e.bytes / e.count).toFixed(0)} B each)`)
    }
  }
}

function childrenOf(d: Dominators): Map<number, number[]> {
  const out = new Map<number, number[]>()
  for (let i = 0; i < d.reachable; i++) {
    if (i === d.root) continue
    const parent = d.idom[i] as number
    let list = out.get(parent)
    if (list === undefined) out.set(parent, (list = []))
    list.push(i)
  }
  return out
}

main()
