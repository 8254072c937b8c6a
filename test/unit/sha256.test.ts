import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/sha256.js'

// The seeded generators hash with src/sha256.ts rather than node:crypto (a start need not load it):
// the digests, and so every seeded id, address and name, must be node's.

describe('sha256', () => {
  it('gives the digest node:crypto gives, for every length across the block boundaries and for any characters', () => {
    const texts = ['', 'abc', 'wallet-sandbox\u0000account\u0000acct_sandboxDefaultAccount000', 'é€𝄞\u0000', 'x'.repeat(1000)]
    for (let length = 0; length <= 200; length++) texts.push(Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7 + length) % 95))).join(''))
    for (const text of texts) expect([text, sha256(text).toString('hex')]).toEqual([text, createHash('sha256').update(text).digest('hex')])
  })
})
