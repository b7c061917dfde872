import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

/**
 * A V8 heap snapshot (`.heapsnapshot`: `node --heapsnapshot-signal=SIGUSR2`, `v8.writeHeapSnapshot`, DevTools) as
 * flat typed arrays, and its dominator tree: an object's retained size is what collecting it would free, counted
 * under the one object every path from the roots to it passes through.
 *
 * Read by hand, not with JSON.parse: a snapshot of a real-size service is gigabytes, past a JavaScript string's
 * length, and its node and edge arrays are only integers.
 */
export class SnapshotGraph {
  readonly nodeCount: number
  /** Per node (by index): its type's name, display name, self size, first edge. */
  readonly #nodes: Float64Array
  readonly #edges: Float64Array
  readonly #strings: readonly string[]
  readonly #nodeTypes: readonly string[]
  readonly #edgeTypes: readonly string[]
  readonly #nf: number
  readonly #ef: number
  readonly #field: { type: number; name: number; size: number; edgeCount: number }
  readonly #edgeField: { type: number; name: number; to: number }
  /** Node index → index of its first edge; `firstEdge[n + 1]` ends its edges. */
  readonly firstEdge: Uint32Array

  constructor(file: string) {
    const buf = readWhole(file)
    // Searched in a view from `from`: Buffer#indexOf clamps its offset to 2^31 - 1, and a real-size snapshot is longer.
    const at = (s: string, from = 0) => {
      const i = buf.subarray(from).indexOf(Buffer.from(s))
      return i === -1 ? -1 : from + i
    }
    const nodesAt = at('"nodes":[')
    const header = JSON.parse(`${buf.subarray(0, nodesAt).toString().replace(/,\s*$/, '')}}`) as {
      snapshot: {
        meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]]; edge_types: [string[]] }
        node_count: number
        edge_count: number
      }
    }
    const { meta } = header.snapshot
    this.#nf = meta.node_fields.length
    this.#ef = meta.edge_fields.length
    this.nodeCount = header.snapshot.node_count
    const nodes = readIntegers(buf, nodesAt + 9, this.nodeCount * this.#nf)
    const edgesAt = at('"edges":[', nodes.end)
    const edges = readIntegers(buf, edgesAt + 9, header.snapshot.edge_count * this.#ef)
    this.#strings = readStrings(buf, at('"strings":[', edges.end) + 11)
    this.#nodes = nodes.values
    this.#edges = edges.values
    this.#nodeTypes = meta.node_types[0]
    this.#edgeTypes = meta.edge_types[0]
    const nf = meta.node_fields
    const ef = meta.edge_fields
    this.#field = {
      type: nf.indexOf('type'),
      name: nf.indexOf('name'),
      size: nf.indexOf('self_size'),
      edgeCount: nf.indexOf('edge_count'),
    }
    this.#edgeField = { type: ef.indexOf('type'), name: ef.indexOf('name_or_index'), to: ef.indexOf('to_node') }
    this.firstEdge = new Uint32Array(this.nodeCount + 1)
    for (let n = 0; n < this.nodeCount; n++)
      this.firstEdge[n + 1] =
        (this.firstEdge[n] as number) + (this.#nodes[n * this.#nf + this.#field.edgeCount] as number)
  }

  type(n: number): string {
    return this.#nodeTypes[this.#nodes[n * this.#nf + this.#field.type] as number] as string
  }

  name(n: number): string {
    return this.#strings[this.#nodes[n * this.#nf + this.#field.name] as number] as string
  }

  selfSize(n: number): number {
    return this.#nodes[n * this.#nf + this.#field.size] as number
  }

  edgeType(e: number): string {
    return this.#edgeTypes[this.#edges[e * this.#ef + this.#edgeField.type] as number] as string
  }

  /** A property's name, or `[i]` for an element or hidden edge. */
  edgeName(e: number): string {
    const raw = this.#edges[e * this.#ef + this.#edgeField.name] as number
    const t = this.edgeType(e)
    return t === 'element' || t === 'hidden' ? `[${raw}]` : (this.#strings[raw] as string)
  }

  edgeTarget(e: number): number {
    return (this.#edges[e * this.#ef + this.#edgeField.to] as number) / this.#nf
  }

  /** Weak and shortcut edges keep nothing alive. */
  holds(e: number): boolean {
    const t = this.edgeType(e)
    return t !== 'weak' && t !== 'shortcut'
  }

  /** The first few property names of an object: what tells plain objects apart. */
  shape(n: number, max = 4): string {
    const names: string[] = []
    for (let e = this.firstEdge[n] as number; e < (this.firstEdge[n + 1] as number) && names.length < max; e++)
      if (this.edgeType(e) === 'property') names.push(this.edgeName(e))
    return `${this.name(n)}{${names.join(',')}}`
  }
}

/** The whole file in one buffer, read in pieces: `readFileSync` stops at 2 GiB, a real-size snapshot is more. */
function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const buf = Buffer.allocUnsafe(size)
    for (let at = 0; at < size;) at += readSync(fd, buf, at, Math.min(2 ** 30, size - at), at)
    return buf
  } finally {
    closeSync(fd)
  }
}

/**
 * The strings section, one JSON string a line (V8 writes `"…",\n` for each): parsed a line at a time, as the whole
 * section of a real-size heap is longer than a JavaScript string can be.
 */
function readStrings(whole: Buffer, start: number): string[] {
  // A view of the section alone (Buffer#indexOf's offsets stop at 2^31 - 1).
  const buf = whole.subarray(start)
  const out: string[] = []
  let i = 0
  for (;;) {
    let end = buf.indexOf(0x0a, i)
    if (end === -1) end = buf.length
    let line = buf.subarray(i, end).toString()
    const last = line.endsWith(']}') || line.endsWith(']}\n')
    line = line.replace(/(?:,|\]\})\s*$/, '')
    if (line.length > 0) out.push(JSON.parse(line) as string)
    if (last || end >= buf.length) return out
    i = end + 1
  }
}

function readIntegers(buf: Buffer, start: number, count: number): { values: Float64Array; end: number } {
  const values = new Float64Array(count)
  let i = start
  let k = 0
  let v = 0
  let inNumber = false
  while (k < count) {
    const c = buf[i++] as number
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48)
      inNumber = true
    } else if (inNumber) {
      values[k++] = v
      v = 0
      inNumber = false
    }
  }
  return { values, end: i }
}

/**
 * The dominator tree of the nodes reachable from the root (node 0), by the iterative algorithm of Cooper, Harvey and
 * Kennedy over a depth-first postorder, and every node's retained size.
 */
export interface Dominators {
  /** Reachable nodes in postorder; `post[node]` is a node's place in it (-1: unreachable). */
  readonly order: Uint32Array
  readonly post: Int32Array
  /** By postorder number: the immediate dominator's postorder number. */
  readonly idom: Int32Array
  /** By postorder number. */
  readonly retained: Float64Array
  readonly root: number
  readonly reachable: number
}

export function dominators(g: SnapshotGraph): Dominators {
  const n = g.nodeCount
  const post = new Int32Array(n).fill(-1)
  const order = new Uint32Array(n)
  let count = 0
  {
    const stackNode = new Uint32Array(n)
    const stackEdge = new Uint32Array(n)
    const seen = new Uint8Array(n)
    let sp = 1
    stackEdge[0] = g.firstEdge[0] as number
    seen[0] = 1
    while (sp > 0) {
      const node = stackNode[sp - 1] as number
      const e = stackEdge[sp - 1] as number
      if (e < (g.firstEdge[node + 1] as number)) {
        stackEdge[sp - 1] = e + 1
        if (!g.holds(e)) continue
        const t = g.edgeTarget(e)
        if (seen[t] === 0) {
          seen[t] = 1
          stackNode[sp] = t
          stackEdge[sp] = g.firstEdge[t] as number
          sp++
        }
      } else {
        post[node] = count
        order[count++] = node
        sp--
      }
    }
  }
  // Predecessors of each node, as one flat list.
  const predStart = new Uint32Array(n + 1)
  const eachHeldEdge = (visit: (from: number, to: number) => void) => {
    for (let from = 0; from < n; from++) {
      if ((post[from] as number) < 0) continue
      for (let e = g.firstEdge[from] as number; e < (g.firstEdge[from + 1] as number); e++)
        if (g.holds(e)) visit(from, g.edgeTarget(e))
    }
  }
  eachHeldEdge((_, to) => predStart[to + 1]++)
  for (let i = 0; i < n; i++) predStart[i + 1] = (predStart[i + 1] as number) + (predStart[i] as number)
  const preds = new Uint32Array(predStart[n] as number)
  const fill = predStart.slice(0, n)
  eachHeldEdge((from, to) => (preds[fill[to]++] = from))

  const root = post[0] as number
  const idom = new Int32Array(count).fill(-1)
  idom[root] = root
  for (let changed = true; changed;) {
    changed = false
    for (let i = count - 2; i >= 0; i--) {
      const node = order[i] as number
      let found = -1
      for (let p = predStart[node] as number; p < (predStart[node + 1] as number); p++) {
        const q = post[preds[p] as number] as number
        if (q < 0 || idom[q] === -1) continue
        if (found === -1) {
          found = q
          continue
        }
        let a = q
        let b = found
        while (a !== b) {
          while (a < b) a = idom[a] as number
          while (b < a) b = idom[b] as number
        }
        found = a
      }
      if (found !== -1 && idom[i] !== found) {
        idom[i] = found
        changed = true
      }
    }
  }
  const retained = new Float64Array(count)
  for (let i = 0; i < count; i++) retained[i] = g.selfSize(order[i] as number)
  for (let i = 0; i < count; i++) if (i !== root) retained[idom[i] as number] += retained[i] as number
  return { order, post, idom, retained, root, reachable: count }
}
