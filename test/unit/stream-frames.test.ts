import * as ws from 'ws'
import { describe, expect, it } from 'vitest'
import { frameText, textFrame } from '../../src/stream/frames.js'

// ws's framing, which @types/ws does not describe.
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }

/** What ws writes for a server's `send(text)`: no mask, no compression, FIN set. */
const framedByWs = (text: string): Buffer => Buffer.concat(Sender.frame(Buffer.from(text), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }))

describe('stream frames', () => {
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 70_000])('builds the same bytes as ws for a text of %i bytes', (length) => {
    const text = 'x'.repeat(length)
    expect(textFrame(text).equals(framedByWs(text))).toBe(true)
    expect(frameText(textFrame(text))).toBe(text)
  })

  it('counts the length in UTF-8 bytes, not characters', () => {
    const text = `{"name":"${'é€'.repeat(30)}"}`
    expect(textFrame(text).equals(framedByWs(text))).toBe(true)
    expect(frameText(textFrame(text))).toBe(text)
  })
})
