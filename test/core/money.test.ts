import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { money } from '../../src/core/money.js'

/** money(): cents, half away from zero on the decimal a number stands for, printed without float noise. */

/** Decimal places of a number as JSON prints it: "1.25" 2, "3" 0, "1.5e+21" 0, "1.5e-7" 8. */
function decimalsOf(printed: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(printed)
  assert.ok(m !== null, `a JSON number: ${printed}`)
  return Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0))
}

test('examples: float noise, half cents that binary stores just below the half, negatives, unknowns', () => {
  const cases: [number, number][] = [
    [391872.8499999999, 391872.85],
    [125178.73999999999, 125178.74],
    [10468996.190000001, 10468996.19],
    [0.285, 0.29],
    [1.005, 1.01],
    [2.675, 2.68],
    [1.015, 1.02],
    [0.125, 0.13],
    [0.284999, 0.28],
    [0.1 + 0.2, 0.3],
    [-0.285, -0.29],
    [-1.004, -1],
    [-0.004, 0],
    [0.004999, 0],
    [0.005, 0.01],
    [42, 42],
    [0, 0],
    [1e-9, 0],
    [1e21, 1e21],
  ]
  for (const [x, want] of cases) assert.equal(money(x), want, `money(${x})`)
  assert.ok(Object.is(money(-0.001), 0), 'no negative zero')
  for (const x of [undefined, null, NaN, Infinity, -Infinity]) assert.equal(money(x), null, String(x))
})

test('property: any double prints with at most 2 decimals and lies within half a cent (plus its own ulp)', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), (x) => {
      const r = money(x) as number
      const printed = JSON.stringify(r)
      assert.ok(decimalsOf(printed) <= 2, `${x} → ${printed}`)
      // The decimal rule may round a number stored a hair below a half cent up: that hair is within x's ulp.
      const slack = 4 * Number.EPSILON * Math.max(1, Math.abs(x))
      assert.ok(Math.abs(r - x) <= 0.005 + slack, `${x} → ${printed}`)
      assert.equal(money(r), r, 'idempotent')
      assert.equal(money(-x), r === 0 ? 0 : -r, 'symmetric')
    }),
    { numRuns: 20_000 },
  )
})

test('property: huge and tiny doubles still print with at most 2 decimals', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      assert.ok(decimalsOf(JSON.stringify(money(x))) <= 2, String(x))
    }),
    { numRuns: 20_000 },
  )
})

test('property: a value written with three decimals rounds half up on its third decimal, as written', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e13 }), fc.boolean(), (thousandths, negative) => {
      const written = `${negative ? '-' : ''}${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, '0')}`
      const cents = Math.floor(thousandths / 10) + (thousandths % 10 >= 5 ? 1 : 0)
      const want = cents === 0 ? 0 : (negative ? -cents : cents) / 100
      assert.equal(money(Number(written)), want, written)
    }),
    { numRuns: 20_000 },
  )
})
