import { STATUS_CODES } from 'node:http'
import { describe, expect, it } from 'vitest'
import { COMMON_STATUSES, statusText } from '../../src/status-text.js'

describe('statusText', () => {
  it("gives node:http's own reason phrase for the statuses it knows without node:http", () => {
    expect(COMMON_STATUSES.length).toBeGreaterThan(10)
    for (const status of COMMON_STATUSES) expect(statusText(status)).toBe(STATUS_CODES[status])
  })

  it("reads node's own table for any other status, and gives undefined where node has none", () => {
    expect(statusText(418)).toBe(STATUS_CODES[418])
    expect(statusText(207)).toBe('Multi-Status')
    expect(statusText(599)).toBeUndefined()
  })
})
