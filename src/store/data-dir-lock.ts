import { dirname } from 'node:path'
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'

/**
 * An exclusive lock on the embedded store's data directory, held by the store process for as long as PGlite has
 * the directory open. PGlite is a single Postgres backend with no postmaster: nothing stops two processes from
 * opening one directory, and two writers on one set of files corrupt it. That happens after a SIGKILL of the
 * service: its store process finishes the statements it had already received and closes PGlite, while the
 * restarted service's new store process opens the same directory.
 *
 * The lock is a file beside the directory (`<dir>.lock`, not inside it, so PGlite's initdb sees an untouched
 * directory), created with O_EXCL and holding the holder's pid and the kernel's start time of that pid. A
 * newcomer that finds it polls until the holder is gone, up to a bound, then fails naming the directory and the
 * holder. No flock: Node has none without a native addon, and a file that names its holder says who to look for.
 *
 * A lock whose holder is dead is stale and is taken over: the holder is dead when its pid does not exist, is a
 * zombie (a killed orphan whose reaper never waits for it, as in containers whose init does not reap), or is a
 * different process than the one that wrote the file (same pid, another start time: the pid was reused).
 * Take-over renames the stale file aside (atomic: of two newcomers, one wins) and checks it moved the file it
 * judged stale; if it moved a fresh lock instead, it links it back.
 */
export interface HeldLock {
  readonly path: string
  /** Removes the lock file if it is still ours. Synchronous, so it can run in an `exit` handler. */
  release(): void
}

export interface LockHolder {
  readonly pid: number
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat field 22); undefined off Linux. */
  readonly start?: number | undefined
  readonly since: string
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
    waitedMs: number,
  ) {
    super(
      `the data directory ${dir} is in use by store process ${holder.pid} (since ${holder.since}; lock file ${lockPathOf(dir)}); ` +
        `waited ${waitedMs} ms for it to exit. Stop the process that holds it (or the service that started it), then start again.`,
    )
    this.name = 'DataDirLockedError'
  }
}

export interface AcquireOptions {
  /** How long to wait for a live holder to let go before failing. */
  readonly waitMs: number
  readonly pollMs?: number
  /** Called once, when the lock is found held by a live process (the caller says why it waits). */
  readonly onWait?: (holder: LockHolder) => void
}

export function lockPathOf(dir: string): string {
  return `${dir.replace(/\/+$/, '')}.lock`
}

export async function acquireDataDirLock(dir: string, options: AcquireOptions): Promise<HeldLock> {
  const path = lockPathOf(dir)
  // A first start: DATA_DIR itself may not exist yet (PGlite creates its directory only once the lock is held).
  mkdirSync(dirname(path), { recursive: true })
  const me: LockHolder = { pid: process.pid, start: startTimeOf(process.pid), since: new Date().toISOString() }
  const content = JSON.stringify(me)
  const startedAt = Date.now()
  let told = false
  for (;;) {
    if (tryCreate(path, content)) return heldLock(path, content)
    const holder = readHolder(path)
    if (holder === 'gone') continue
    if (holder === undefined || !isAlive(holder)) {
      takeOver(path, holder)
      continue
    }
    const waited = Date.now() - startedAt
    if (waited >= options.waitMs) throw new DataDirLockedError(dir, holder, waited)
    if (!told) {
      told = true
      options.onWait?.(holder)
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 100))
  }
}

function tryCreate(path: string, content: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx', 0o644)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
  try {
    writeSync(fd, content)
  } finally {
    closeSync(fd)
  }
  return true
}

function heldLock(path: string, content: string): HeldLock {
  let released = false
  return {
    path,
    release() {
      if (released) return
      released = true
      try {
        if (readFileSync(path, 'utf8') === content) unlinkSync(path)
      } catch {
        // already gone (taken over as stale, or removed by hand)
      }
    },
  }
}

/**
 * The holder named in the lock file; `undefined` when the file cannot be read as one (a holder killed between
 * creating and writing it: stale), 'gone' when the file vanished meanwhile (its holder released it).
 */
function readHolder(path: string): LockHolder | undefined | 'gone' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone'
    throw err
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>
    if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0) return undefined
    return { pid: h.pid, start: typeof h.start === 'number' ? h.start : undefined, since: String(h.since) }
  } catch {
    // A file just created and not yet written reads empty: its writer gets a second before it is judged stale.
    return text === '' && Date.now() - mtimeMs(path) < 1_000 ? WRITING : undefined
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

/** Stands for the holder of a lock file still being written: alive, pid unknown. */
const WRITING: LockHolder = { pid: -1, since: 'now' }

/** Whether the process that wrote the lock still runs (a zombie does not; a reused pid is someone else). */
export function isAlive(holder: LockHolder): boolean {
  if (holder === WRITING) return true
  try {
    process.kill(holder.pid, 0)
  } catch (err) {
    // EPERM: it exists, under another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const stat = procStat(holder.pid)
  if (stat === undefined) return true
  if (stat.state === 'Z' || stat.state === 'X') return false
  return holder.start === undefined || holder.start === stat.start
}

function startTimeOf(pid: number): number | undefined {
  return procStat(pid)?.start
}

/** State and start time from /proc/<pid>/stat; undefined where there is no /proc. */
function procStat(pid: number): { state: string; start: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const start = Number(fields[19])
  return { state: fields[0] ?? '', start }
}

function takeOver(path: string, stale: LockHolder | undefined): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`
  try {
    renameSync(path, aside)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  const moved = readHolder(aside)
  const same =
    stale === undefined
      ? moved === undefined
      : moved !== undefined && moved !== 'gone' && moved.pid === stale.pid && moved.start === stale.start
  if (!same) {
    // Another newcomer took the stale lock over between our read and our rename: put its lock back.
    try {
      linkSync(aside, path)
    } catch {
      // a third process holds a lock by now; the one we moved is its holder's to lose
    }
  }
  try {
    unlinkSync(aside)
  } catch {
    // already gone
  }
}
