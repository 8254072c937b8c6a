import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The package says it runs on Node >= 20.19 (package.json `engines`), and so must the tools its
 * development installs: a package whose `engines.node` excludes that Node makes `npm ci` warn
 * (EBADENGINE, @stoplight/prism-cli 5.16 wanted Node 24), or may not run. docs/development.md
 * says which versions are pinned for it.
 */

const ROOT = join(import.meta.dirname, '../..')
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> }

type Version = [number, number, number]
/** `20`, `20.19`, `10.x`, `0.8.*` → the version and how many of its parts were given. */
function parse(text: string): { version: Version; given: number } {
  const parts = text.replace(/^v/, '').split('.').filter((part) => part !== '' && part !== 'x' && part !== 'X' && part !== '*')
  if (parts.some((part) => !/^\d+$/.test(part))) throw new Error(`not a version: ${text}`)
  const numbers = parts.map(Number)
  return { version: [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0], given: numbers.length }
}
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** Whether `version` satisfies an npm range of the forms engines use (`>=18`, `^20.19.0`, `4.x || >=6`, `>=20.19.0 <21`); throws on another. */
export function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((set) =>
    set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean).every((comparator) => {
      const [, operator = '', text = ''] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!
      const { version: bound, given } = parse(text)
      const order = compare(version, bound)
      if (operator === '>=') return order >= 0
      if (operator === '>') return order > 0
      if (operator === '<=') return order <= 0
      if (operator === '<') return order < 0
      if (operator === '^') return order >= 0 && (bound[0] > 0 ? version[0] === bound[0] : version[1] === bound[1])
      if (operator === '~') return order >= 0 && version[0] === bound[0] && (given < 2 || version[1] === bound[1])
      // `20`, `10.*`, `=1.2.3`: the parts given must match.
      return version.slice(0, given).every((part, index) => part === bound[index])
    }),
  )
}

describe('the Node the package supports', () => {
  const floor = parse(/^>=\s*([\d.]+)$/.exec(manifest.engines.node)![1]!).version

  it('reads the ranges engines use', () => {
    expect([
      satisfies([20, 19, 0], '>=24.18.0'), satisfies([20, 19, 0], '>= 18'), satisfies([20, 19, 0], '^20.19.0 || >=22.12.0'),
      satisfies([20, 19, 0], '>=22.12.0 || >=20.19.0 <21.0.0'), satisfies([20, 19, 0], '>=16 || 14 >=14.17'), satisfies([20, 19, 0], '10.* || >= 12.*'),
      satisfies([20, 19, 0], '^18.0.0'), satisfies([20, 19, 0], '*'), satisfies([20, 19, 0], '>=20.19'), satisfies([20, 18, 1], '>=20.19'),
    ]).toEqual([false, true, true, true, true, true, false, true, true, false])
  })

  it(`is one every installed package supports (${manifest.engines.node}), so that npm ci warns of none`, () => {
    const refusing = Object.entries(lock.packages)
      .map(([path, entry]) => ({ path, version: entry.version, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
      .filter(({ node }) => node !== undefined && !satisfies(floor, node))
      .map(({ path, version, node }) => `${path.replace(/^.*node_modules\//, '')}@${version} wants node ${node}`)
    expect(refusing).toEqual([])
  })
})
