/**
 * Outcome titles when a venue gives an outcome no short title of its own: real captures of grouped events name
 * their children only by the full question ("Will JD Vance win the 2028 US Presidential Election?"), and a binary
 * market may come without a subtitle for its YES side. The outcome is what its question says that its siblings' do
 * not: the question without the longest runs of leading and trailing words its sibling questions share.
 * Words compare case-insensitively, ignoring surrounding punctuation; the title keeps the question's own words.
 */

/** Surrounding punctuation that does not make two words different ("2026?" is "2026", "“Bond" is "bond"). */
const EDGE_PUNCTUATION = /^[\s"'“”‘’(\[]+|[\s"'“”‘’)\]?!.,:;]+$/g

function key(word: string): string {
  return word.replace(EDGE_PUNCTUATION, '').toLowerCase()
}

function words(text: string): string[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
}

/**
 * The words of `question` between the word prefix and suffix it shares with its siblings (`siblings` should include
 * `question`), without trailing punctuation; undefined when there are fewer than two distinct siblings or nothing is
 * left. A shared word is one every sibling has at that position from the start (prefix) or the end (suffix). One
 * sibling in ten may be worded apart ("Will Trump nominate no one before 2027?" among "Will Trump nominate X as the
 * next Fed chair?") without cutting the run short, except over words with digits: dates and thresholds are what
 * sets siblings apart, so they are stripped only when all siblings share them.
 */
export function distinctPart(question: string, siblings: readonly string[]): string | undefined {
  const own = words(question)
  const others = [...new Set(siblings.map((s) => s.trim()))].map((s) => words(s).map(key))
  if (others.length < 2 || own.length === 0) return undefined
  const keys = own.map(key)
  const tolerance = Math.floor(others.length / 10)
  const run = (at: (w: readonly string[], i: number) => string | undefined): number => {
    let k = 0
    for (; k < keys.length; k++) {
      const mine = at(keys, k)
      const shared = others.reduce((n, o) => (at(o, k) === mine ? n + 1 : n), 0)
      if (shared === others.length) continue
      if (shared >= others.length - tolerance && !/\d/.test(mine as string)) continue
      break
    }
    return k
  }
  const prefix = run((w, i) => w[i])
  const suffix = run((w, i) => w[w.length - 1 - i])
  // A question that is another's prefix (or equal to it) leaves nothing of its own between the two runs.
  if (prefix + suffix >= own.length) return undefined
  return clean(own.slice(prefix, own.length - suffix).join(' '))
}

/** `title` without any word of `context` (an event title); undefined when no word is left. */
export function withoutWords(title: string, context: string): string | undefined {
  const drop = new Set(words(context).map(key))
  return clean(
    words(title)
      .filter((w) => !drop.has(key(w)))
      .join(' '),
  )
}

function clean(text: string): string | undefined {
  const t = text.replace(/[\s?!.,:;]+$/, '').trim()
  return t.length === 0 ? undefined : t
}

/** A venue label, trimmed; undefined when empty or missing. */
export function nonEmpty(s: string | undefined): string | undefined {
  const t = s?.trim()
  return t === undefined || t.length === 0 ? undefined : t
}
