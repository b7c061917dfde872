/** `npm run soak -- --minutes N`: how long to run (10 by default; fractions allowed for a quick check). */
export interface SoakArgs {
  readonly minutes: number
}

export const DEFAULT_MINUTES = 10

export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  let minutes = DEFAULT_MINUTES
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [name, inline] = arg.split('=', 2)
    if (name === '--minutes') {
      const value = inline ?? argv[++i]
      minutes = Number(value)
      if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`--minutes wants a positive number, got ${value}`)
    } else {
      throw new Error(`unknown argument ${arg} (usage: npm run soak -- [--minutes N])`)
    }
  }
  return { minutes }
}
