import { describe, expect, it } from 'vitest'
import { paintFor, statusColour, wantsColour } from '../../src/colour.js'

/** Colour on a terminal, none when piped or under NO_COLOR (https://no-color.org); FORCE_COLOR as Node reads it. */

describe('wantsColour', () => {
  const terminal = { isTTY: true }
  const pipe = { isTTY: false }
  it.each([
    ['a terminal', terminal, {}, true],
    ['a pipe or a file', pipe, {}, false],
    ['a terminal under NO_COLOR=1', terminal, { NO_COLOR: '1' }, false],
    ['a terminal under NO_COLOR=0 (any value counts)', terminal, { NO_COLOR: '0' }, false],
    ['a terminal under an empty NO_COLOR (unset, as no-color.org says)', terminal, { NO_COLOR: '' }, true],
    ['a terminal with TERM=dumb', terminal, { TERM: 'dumb' }, false],
    ['a pipe under FORCE_COLOR=1', pipe, { FORCE_COLOR: '1' }, true],
    ['a pipe under an empty FORCE_COLOR', pipe, { FORCE_COLOR: '' }, true],
    ['a terminal under FORCE_COLOR=0', terminal, { FORCE_COLOR: '0' }, false],
    ['a terminal under FORCE_COLOR=false', terminal, { FORCE_COLOR: 'false' }, false],
    ['FORCE_COLOR over NO_COLOR, as Node has it', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  ])('%s: %s', (_name, stream, env, expected) => {
    expect(wantsColour(stream, env)).toBe(expected)
  })
})

describe('paintFor', () => {
  it('paints with ANSI codes, reset after, or leaves the text alone', () => {
    expect(paintFor(true)('red', '[ERR]')).toBe('\x1b[31m[ERR]\x1b[0m')
    expect(paintFor(false)('red', '[ERR]')).toBe('[ERR]')
  })

  it('colours a status by its class', () => {
    expect([200, 302, 404, 503].map(statusColour)).toEqual(['green', 'cyan', 'yellow', 'red'])
  })
})
