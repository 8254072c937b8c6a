/**
 * SHA-256 of a short string (its UTF-8 bytes), in JavaScript: the seeded generators (src/rng.ts)
 * hash a few dozen bytes each, a few times at every start, and node:crypto was the costliest module
 * a start loaded for them (about 4 % of a cold start, issue 33). test/unit/sha256.test.ts checks it
 * against node:crypto.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

/**
 * The 32-byte digest. Bytes and words are read and written by hand, not with Buffer's readUInt32BE and
 * writeUInt32BE: at a start this runs cold, and the calls into node's buffer module made each hash
 * about twice as slow (issue 33). For the same reason the rotations are written out and the state
 * is eight local variables: a start's hashes run in V8's interpreter, where a call to a `rotr`
 * helper (ten a round) and the state unpacked from a typed array by destructuring cost more than
 * the arithmetic; the first hash of a start took 2.19 M instructions that way, 1.68 M this way, and
 * the second 668 k, 417 k (callgrind, issue 33 round 7).
 */
export function sha256(text: string): Buffer {
  const message = Buffer.from(text, 'utf8')
  // The message, a 1 bit, zeros, and its length in bits as 64 bits big-endian: a whole number of 64-byte blocks.
  const blocks = new Uint8Array(Math.ceil((message.length + 9) / 64) * 64)
  blocks.set(message)
  blocks[message.length] = 0x80
  const bits = message.length * 8
  for (let i = 0; i < 4; i++) {
    blocks[blocks.length - 1 - i] = (bits >>> (8 * i)) & 0xff
    blocks[blocks.length - 5 - i] = (Math.floor(bits / 2 ** 32) >>> (8 * i)) & 0xff
  }

  let h0 = 0x6a09e667 | 0
  let h1 = 0xbb67ae85 | 0
  let h2 = 0x3c6ef372 | 0
  let h3 = 0xa54ff53a | 0
  let h4 = 0x510e527f | 0
  let h5 = 0x9b05688c | 0
  let h6 = 0x1f83d9ab | 0
  let h7 = 0x5be0cd19 | 0
  const w = new Int32Array(64)
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let i = 0, at = offset; i < 16; i++, at += 4) w[i] = (blocks[at]! << 24) | (blocks[at + 1]! << 16) | (blocks[at + 2]! << 8) | blocks[at + 3]!
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!
      const y = w[i - 2]!
      // σ0(x) = x ⋙ 7 ⊕ x ⋙ 18 ⊕ x ≫ 3, σ1(y) = y ⋙ 17 ⊕ y ⋙ 19 ⊕ y ≫ 10
      w[i] = w[i - 16]! + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7]! + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))
    }
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    let f = h5
    let g = h6
    let k = h7
    for (let i = 0; i < 64; i++) {
      // Σ1(e) = e ⋙ 6 ⊕ e ⋙ 11 ⊕ e ⋙ 25, Σ0(a) = a ⋙ 2 ⊕ a ⋙ 13 ⊕ a ⋙ 22
      const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
      const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      k = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
    h5 = (h5 + f) | 0
    h6 = (h6 + g) | 0
    h7 = (h7 + k) | 0
  }
  const digest = Buffer.allocUnsafe(32)
  const words = [h0, h1, h2, h3, h4, h5, h6, h7]
  for (let i = 0; i < 32; i++) digest[i] = words[i >> 2]! >>> (24 - 8 * (i & 3))
  return digest
}
