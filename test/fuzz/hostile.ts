import fc from 'fast-check'
import { naughtyString } from './naughty.js'

/** JSON values of the wrong kind for any field: numbers at the edges, nulls, arrays for objects, strange strings. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: naughtyString() },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -0, -1, 1.5, -10.5, 1e21, -1e21, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, [], {}, [null], [''], { '': '' }),
    },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.array(naughtyString(), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(naughtyString(), naughtyString(), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 40 }).map((depth) => nest(depth)) },
  )

/** `[[[…"x"…]]]` or `{"a":{"a":…}}`, `depth` levels. */
function nest(depth: number): unknown {
  let value: unknown = 'x'
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
  return value
}

/**
 * Bodies that are not a JSON value of the right shape, as raw text: broken JSON, JSON a parser
 * reads differently (duplicate keys, numbers beyond double range, a BOM), nesting beyond any sane
 * depth, and JSON of the wrong kind (an array, a string, null).
 */
export const hostileBodyText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '{', '}', '{"a":', '{"a":1,}', "{'a':1}", '{a:1}', '[', 'nul', 'tru', '"', '{"a":"\\x"}', '{"a":"\\ud800"}', '\ufeff{}', '{}\u0000', '{} {}', '{}garbage',
      'null', 'true', '0', '-1', '"text"', '[]', '[{}]', '[1,2,3]', '1e999999', '{"amount":1e999999}', '{"ms":1e400}', '{"limit":-0}',
      '{"amount":"1.00","amount":{"x":1}}', '{"name":"a","name":null}', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
      '{"metadata":{"__proto__":"x"}}', '\u0000', ' ', '\r\n', '<xml/>', 'a=1&b=2',
    ),
    fc.integer({ min: 30, max: 200_000 }).chain((depth) => fc.constantFrom('['.repeat(depth), '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), '['.repeat(depth) + ']'.repeat(depth))),
    fc.json({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    hostileValue().map((value) => JSON.stringify(value) ?? 'null'),
  )
