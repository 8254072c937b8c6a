import { describe, expect, it } from 'vitest'
import { paintFor } from '../../../src/colour.js'
import { EVENT_TYPES } from '../../../src/model/events.js'
import { EVENT_TYPE_WIDTH, paintAnswer, paintEventType, paintStatus } from '../../../src/cli/terminal/styles.js'

/** How trigger, listen and tail colour what they print. */

const painted = paintFor(true)
const plain = paintFor(false)
const visible = (text: string) => text.replace(/\x1b\[\d+m/g, '')

describe('the terminal styles', () => {
  it('pads every event type to one width, painted or not, so that listen\'s columns stay aligned', () => {
    for (const type of EVENT_TYPES) {
      expect(paintEventType(plain, type, EVENT_TYPE_WIDTH)).toHaveLength(EVENT_TYPE_WIDTH)
      expect(visible(paintEventType(painted, type, EVENT_TYPE_WIDTH))).toBe(paintEventType(plain, type, EVENT_TYPE_WIDTH))
    }
    expect(EVENT_TYPE_WIDTH).toBe('settlement.step_completed'.length)
  })

  it.each([
    ['payment.failed', '\x1b[31m'], ['payout.partially_failed', '\x1b[31m'], ['order.rejected', '\x1b[31m'],
    ['order.expired', '\x1b[33m'], ['settlement.refunded', '\x1b[33m'],
    ['payment.succeeded', '\x1b[32m'], ['order.filled', '\x1b[32m'],
  ])('colours %s by how it ended', (type, code) => {
    expect(paintEventType(painted, type)).toBe(`${code}${type}\x1b[0m`)
  })

  it('leaves the types of objects still on their way as they are', () => {
    expect(paintEventType(painted, 'payment.created')).toBe('payment.created')
  })

  it('makes [ERR], 5xx and a request without an answer red, 4xx yellow', () => {
    expect(paintAnswer(painted, 'ERR')).toBe('\x1b[31m[ERR]\x1b[0m')
    expect(paintAnswer(painted, 500)).toBe('\x1b[31m[500]\x1b[0m')
    expect(paintAnswer(painted, 404)).toBe('\x1b[33m[404]\x1b[0m')
    expect(paintAnswer(painted, 200)).toBe('\x1b[32m[200]\x1b[0m')
    expect(paintStatus(painted, null)).toBe('\x1b[31mno answer\x1b[0m')
    expect(paintStatus(plain, 503)).toBe('503')
  })
})
