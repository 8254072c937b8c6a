import { readFileSync } from 'node:fs'
import { base32nopad, base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { isValidEvmAddress, toChecksumAddress } from '../../src/chain/evm.js'
import { addressKey, describeAddressFormat, generateAddress, generateTxHash, isValidAddress, networksForAddress } from '../../src/chain/networks.js'
import { assetDecimals, CURRENCIES, isNetwork, type Network, NETWORKS } from '../../src/model/networks.js'
import { generateSolanaSignature, isValidSolanaAddress } from '../../src/chain/solana.js'
import { isValidStellarAddress } from '../../src/chain/stellar.js'
import { createRng } from '../../src/rng.js'

/** Swaps the case of the first letter in the hex part, breaking an EIP-55 checksum. */
function flipFirstLetter(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2
  const c = address[i]!
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()
  return address.slice(0, i) + flipped + address.slice(i + 1)
}

/** Replaces the character at `index` with a different one from the same alphabet. */
function changeChar(value: string, index: number, alphabet: string): string {
  const current = value[index]!
  const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length]!
  return value.slice(0, index) + replacement + value.slice(index + 1)
}

function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

function strKey(version: number, payload: Uint8Array): string {
  const body = new Uint8Array([version, ...payload, 0, 0])
  const crc = crc16xmodem(body.subarray(0, body.length - 2))
  body[body.length - 2] = crc & 0xff
  body[body.length - 1] = crc >>> 8
  return base32nopad.encode(body)
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

describe('EVM addresses', () => {
  const eip55Vectors = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]

  it.each(eip55Vectors)('accepts the EIP-55 vector %s', (address) => {
    expect(isValidEvmAddress(address)).toBe(true)
  })

  it.each(eip55Vectors)('checksums the lower-case form of %s back to the vector', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address)
    expect(toChecksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(address)
  })

  it.each(eip55Vectors)('rejects %s with the case of one letter flipped', (address) => {
    expect(isValidEvmAddress(flipFirstLetter(address))).toBe(false)
  })

  it.each([
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    ...eip55Vectors.map((a) => a.toLowerCase()),
  ])('accepts the single-case address %s without a checksum', (address) => {
    expect(isValidEvmAddress(address)).toBe(true)
  })

  it.each([
    ['no 0x prefix', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['an upper-case 0X prefix', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['39 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['41 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0'],
    ['a non-hex digit', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
    ['surrounding whitespace', ' 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['nothing at all', ''],
  ])('rejects an address with %s', (_label, address) => {
    expect(isValidEvmAddress(address)).toBe(false)
  })

  it('refuses to checksum something that is not an address', () => {
    expect(() => toChecksumAddress('0x1234')).toThrow(TypeError)
  })
})

describe('Stellar account ids', () => {
  const known = [
    'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
    'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
  ]

  it.each(known)('accepts the real account id %s', (address) => {
    expect(isValidStellarAddress(address)).toBe(true)
  })

  it.each(known.flatMap((address) => [0, 1, 20, 55].map((i) => [address, i] as const)))(
    'rejects %s with the character at %i changed',
    (address, index) => {
      expect(isValidStellarAddress(changeChar(address, index, BASE32))).toBe(false)
    },
  )

  it.each(known.flatMap((address) => [
    ['lower case', address.toLowerCase()],
    ['one character missing', address.slice(0, -1)],
    ['one character too many', address + 'A'],
    ['base32 padding', address + '===='],
    ['surrounding whitespace', address + ' '],
  ]))('rejects an account id in %s', (_label, address) => {
    expect(isValidStellarAddress(address)).toBe(false)
  })

  it.each([
    ['a secret seed (S)', 18 << 3],
    ['a pre-auth transaction (T)', 19 << 3],
    ['a sha256 hash signer (X)', 23 << 3],
  ])('rejects a well-formed StrKey for %s', (_label, version) => {
    const payload = base32nopad.decode(known[0]!).slice(1, 33)
    expect(isValidStellarAddress(strKey(version, payload))).toBe(false)
    expect(isValidStellarAddress(strKey(6 << 3, payload))).toBe(true)
  })
})

describe('Solana addresses', () => {
  it.each([
    '11111111111111111111111111111111',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    'So11111111111111111111111111111111111111112',
  ])('accepts the known address %s', (address) => {
    expect(isValidSolanaAddress(address)).toBe(true)
  })

  it.each([
    ['31 bytes', base58.encode(new Uint8Array(31).fill(200))],
    ['33 bytes', base58.encode(new Uint8Array(33).fill(200))],
    ['31 zero bytes', '1'.repeat(31)],
    ['33 zero bytes', '1'.repeat(33)],
  ])('rejects a string that decodes to %s', (_label, address) => {
    expect(isValidSolanaAddress(address)).toBe(false)
  })

  it.each(['0', 'O', 'I', 'l', '+'])('rejects an address containing the non-base58 character %s', (char) => {
    expect(isValidSolanaAddress('Tokenkeg' + char + 'feZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(false)
  })

  it('rejects an empty string', () => {
    expect(isValidSolanaAddress('')).toBe(false)
  })

  it('signs with base58 of 64 bytes', () => {
    const signature = generateSolanaSignature(createRng('sig'))
    expect(base58.decode(signature)).toHaveLength(64)
  })
})

describe('networks', () => {
  it('lists every currency once, sorted', () => {
    expect(CURRENCIES).toEqual(['ETH', 'MATIC', 'SOL', 'USDC', 'USDT', 'XLM'])
  })

  it.each([
    ['polygon', 'USDC', 6],
    ['polygon', 'MATIC', 18],
    ['ethereum', 'USDT', 6],
    ['ethereum', 'ETH', 18],
    ['stellar', 'USDC', 7],
    ['stellar', 'XLM', 7],
    ['solana', 'USDC', 6],
    ['solana', 'SOL', 9],
    ['polygon', 'XLM', undefined],
    ['solana', 'ETH', undefined],
    ['ethereum', 'toString', undefined],
    ['stellar', 'usdc', undefined],
  ] as const)('gives %s %s the decimals %s', (network, currency, decimals) => {
    expect(assetDecimals(network, currency)).toBe(decimals)
  })

  it.each([
    ['polygon', true],
    ['solana', true],
    ['bitcoin', false],
    ['Polygon', false],
    ['toString', false],
  ] as const)('says whether %s is a network: %s', (value, expected) => {
    expect(isNetwork(value)).toBe(expected)
  })

  it.each(NETWORKS)('generates valid %s addresses', (network) => {
    const rng = createRng('valid', network)
    for (let i = 0; i < 50; i++) expect(isValidAddress(network, generateAddress(network, rng))).toBe(true)
  })

  it.each(NETWORKS)('generates the same %s address for the same seed and another for another seed', (network) => {
    const a = generateAddress(network, createRng('seed-a'))
    expect(generateAddress(network, createRng('seed-a'))).toBe(a)
    expect(generateAddress(network, createRng('seed-b'))).not.toBe(a)
  })

  it.each([
    ['polygon', /^0x[0-9a-f]{64}$/],
    ['ethereum', /^0x[0-9a-f]{64}$/],
    ['stellar', /^[0-9a-f]{64}$/],
    ['solana', /^[1-9A-HJ-NP-Za-km-z]{64,88}$/],
  ] as const)('makes %s transaction hashes of the chain’s own format', (network, pattern) => {
    const hash = generateTxHash(network, createRng('tx', network))
    expect(hash).toMatch(pattern)
    expect(generateTxHash(network, createRng('tx', network))).toBe(hash)
    if (network === 'solana') expect(base58.decode(hash)).toHaveLength(64)
  })

  it.each([
    ['polygon', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['ethereum', '0xD1220A0CF47C7B9BE7A2E6BA89F429762E7B9ADB', '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb'],
    ['stellar', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'],
    ['solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
  ] as const)('compares %s addresses by the key %s → %s', (network, address, key) => {
    expect(addressKey(network, address)).toBe(key)
  })

  it.each([
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', ['polygon', 'ethereum']],
    ['GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', ['stellar']],
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', ['solana']],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', []],
    ['not an address', []],
  ])('guesses that %s belongs to %j', (address, networks) => {
    expect(networksForAddress(address)).toEqual(networks)
  })

  it.each(NETWORKS)('describes the %s address format in words', (network) => {
    expect(describeAddressFormat(network)).toMatch(/^an? \S/)
  })
})

interface MagicEntry {
  network: Network
  address: string
  outcome: 'failed' | 'pending'
  failure_code: string | null
  stage: 'pending' | 'processing' | null
  description: string
}
interface ScreeningEntry {
  network: Network
  address: string
  reason: string
}

const readFixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')) as T

describe('fixtures', () => {
  const magic = readFixture<MagicEntry[]>('magic.json')
  const screening = readFixture<ScreeningEntry[]>('screening.json')
  const all = [...magic, ...screening]

  it.each(all.map((e) => [e.network, e.address] as const))('has a valid %s address %s', (network, address) => {
    expect(isNetwork(network)).toBe(true)
    expect(isValidAddress(network, address)).toBe(true)
  })

  it('never lists the same address twice', () => {
    const keys = all.map((e) => e.address.toLowerCase())
    expect(new Set(keys).size).toBe(keys.length)
  })

  it.each(NETWORKS)('has the five magic outcomes and two flagged addresses on %s', (network) => {
    const outcomes = magic
      .filter((e) => e.network === network)
      .map((e) => [e.outcome, e.failure_code, e.stage])
    expect(outcomes).toEqual([
      ['failed', 'screening_rejected', 'pending'],
      ['failed', 'network_congestion', 'processing'],
      ['failed', 'insufficient_network_fee', 'processing'],
      ['failed', 'recipient_rejected', 'processing'],
      ['pending', null, null],
    ])
    expect(screening.filter((e) => e.network === network)).toHaveLength(2)
  })

  it('describes every magic address and gives every flagged address a reason', () => {
    for (const e of magic) expect(e.description.length).toBeGreaterThan(0)
    for (const e of screening) expect(e.reason.length).toBeGreaterThan(0)
  })
})
