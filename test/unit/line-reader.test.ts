import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { readLines, type Line } from '../../src/store/line-reader.js'

const dir = mkdtempSync(join(tmpdir(), 'line-reader-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function readAll(path: string, start: number, chunkBytes: number): Promise<Line[]> {
  const lines: Line[] = []
  for await (const batch of readLines(path, start, chunkBytes)) lines.push(...batch)
  return lines
}

/** What the lines must be: split at every newline, offsets and lengths counted in bytes. */
function expected(text: string, start: number): Line[] {
  const bytes = Buffer.from(text, 'utf8').subarray(start)
  const lines: Line[] = []
  let offset = start
  let from = 0
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, from)) {
    lines.push({ text: bytes.toString('utf8', from, end), number: lines.length + 1, offset, bytes: end - from, terminated: true })
    offset += end + 1 - from
    from = end + 1
  }
  if (from < bytes.length) lines.push({ text: bytes.toString('utf8', from), number: lines.length + 1, offset, bytes: bytes.length - from, terminated: false })
  return lines
}

describe('readLines', () => {
  it('gives every line whole, with its byte offset and length, however the chunks cut it (multi-byte characters and lines longer than a chunk included)', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 30 }), fc.boolean(), fc.integer({ min: 1, max: 64 }), async (lines, torn, chunkBytes) => {
        const text = lines.map((line) => line.replaceAll('\n', ' ')).join('\n') + (torn || lines.length === 0 ? '' : '\n')
        const path = join(dir, `lines-${run++}`)
        writeFileSync(path, text)
        expect(await readAll(path, 0, chunkBytes)).toEqual(expected(text, 0))
      }),
      { numRuns: 300 },
    )
  })

  it('starts at a byte offset, counting lines from there', async () => {
    const path = join(dir, 'offset')
    const text = '{"a":"é"}\n{"b":2}\n{"c":3}\n'
    writeFileSync(path, text)
    const start = Buffer.byteLength('{"a":"é"}\n')
    expect(await readAll(path, start, 3)).toEqual(expected(text, start))
    expect((await readAll(path, start, 3))[0]).toEqual({ text: '{"b":2}', number: 1, offset: start, bytes: 7, terminated: true })
  })
})
