import type { KeyObject } from 'node:crypto'
import { nodeCrypto } from '../../node-crypto.js'
import { ApiError } from '../../errors.js'
import type { SigningKeyRecord } from '../../model/records.js'
import { buildSignatureBase } from './base.js'
import { assertContentDigest } from './digest.js'
import { fieldValues, type SignedMessage } from './message.js'
import type { NonceMemory } from './nonces.js'
import { SignatureFormatError } from './signature-error.js'
import { chooseSignature, type ChosenSignature } from './signature-fields.js'

/** How far ahead of real time `created` may be, for clients whose clock runs a little fast. */
export const MAX_CLOCK_SKEW_SECONDS = 30

export interface SignatureCheck {
  /** `--signature-max-age`, seconds. */
  maxAgeSeconds: number
  /** Real time in Unix seconds (never the sandbox clock). */
  nowSeconds: () => number
  nonces: NonceMemory
}

/**
 * Checks one request against the key it must be signed with (CONTRACT.md sections 17 and 19) and
 * throws the error to answer with. `scope` names whose nonces these are (the API key).
 */
export function verifySignedRequest(message: SignedMessage, key: SigningKeyRecord, scope: string, check: SignatureCheck): void {
  const signatureInput = joined(message, 'signature-input')
  const signatureField = joined(message, 'signature')
  if (signatureInput === undefined && signatureField === undefined) {
    throw new ApiError('signature_missing', `This key requires signed requests: send Signature-Input and Signature (RFC 9421) made with the key ${key.key_id} (${key.alg}).`)
  }
  let chosen: ChosenSignature
  let base: string | null = null
  try {
    if (signatureInput === undefined || signatureField === undefined) throw new SignatureFormatError(`${signatureInput === undefined ? 'Signature-Input' : 'Signature'} is missing; send both headers`)
    chosen = chooseSignature(signatureInput, signatureField, key.key_id)
    base = buildSignatureBase(chosen.input, message)
  } catch (error) {
    if (error instanceof SignatureFormatError) throw invalid(`${error.message}.`, base)
    throw error
  }
  const { params, label } = chosen
  if (params.created === undefined) throw invalid(`Signature-Input ${label} has no ;created parameter; it is required (Unix seconds).`, base)
  if (params.keyid !== key.key_id) {
    throw invalid(params.keyid === undefined ? `Signature-Input ${label} has no ;keyid; this key signs as keyid="${key.key_id}".` : `Unknown keyid "${params.keyid}": this API key signs as keyid="${key.key_id}".`, base)
  }
  if (params.alg !== undefined && params.alg !== key.alg) throw invalid(`alg "${params.alg}" is not this key's algorithm; the key ${key.key_id} is ${key.alg}.`, base)
  const uncovered = missingComponents(chosen, message)
  if (uncovered.length > 0) throw invalid(`The signature must cover ${uncovered.join(', ')}.`, base)
  if (!signatureMatches(key, base, chosen.signature)) {
    throw invalid(`The signature does not verify with the key ${key.key_id} (${key.alg}). Compare your signature base with error.signature_base.`, base)
  }

  const now = check.nowSeconds()
  if (now - params.created > check.maxAgeSeconds) {
    throw new ApiError('signature_expired', `The signature was created ${now - params.created} s ago; signatures are accepted for ${check.maxAgeSeconds} s. Sign each request when it is sent.`)
  }
  if (params.expires !== undefined && params.expires < now) throw new ApiError('signature_expired', `The signature expired ${now - params.expires} s ago (;expires=${params.expires}).`)
  if (params.created - now > MAX_CLOCK_SKEW_SECONDS) {
    throw new ApiError('signature_future', `The signature's created time is ${params.created - now} s in the future; at most ${MAX_CLOCK_SKEW_SECONDS} s are tolerated. Check the client's clock.`)
  }
  if (params.nonce !== undefined && check.nonces.seen(scope, params.nonce, now)) {
    throw new ApiError('signature_replayed', `The nonce "${params.nonce}" was already used within the last ${check.maxAgeSeconds} s; use a fresh nonce for every request.`)
  }
  const digest = joined(message, 'content-digest')
  if (digest !== undefined) assertContentDigest(digest, message.body)
  if (params.nonce !== undefined) check.nonces.remember(scope, params.nonce, params.created, now)
}

function joined(message: SignedMessage, name: string): string | undefined {
  const values = fieldValues(message, name)
  return values.length === 0 ? undefined : values.join(', ')
}

const invalid = (message: string, base: string | null) => new ApiError('signature_invalid', message, { signatureBase: base })

/** What CONTRACT.md section 17 requires a signature to cover, minus what it covers. */
function missingComponents(chosen: ChosenSignature, message: SignedMessage): string[] {
  const covered = new Set(chosen.input[0].map(([name]) => name as string))
  const missing: string[] = []
  if (!covered.has('@method')) missing.push('"@method"')
  if (!covered.has('@target-uri')) {
    if (!covered.has('@path')) missing.push('"@target-uri" (or "@path")')
    if (message.target.includes('?') && !covered.has('@query')) missing.push('"@query" (the request has a query; or cover "@target-uri")')
  }
  if (!covered.has('authorization')) missing.push('"authorization"')
  if (message.body.length > 0 && !covered.has('content-digest')) missing.push('"content-digest" (the request has a body)')
  return missing
}

const publicKeys = new Map<string, KeyObject>()

function signatureMatches(key: SigningKeyRecord, base: string, signature: Buffer): boolean {
  if (key.alg === 'hmac-sha256') {
    const expected = nodeCrypto().createHmac('sha256', Buffer.from(key.secret, 'base64')).update(base).digest()
    return signature.length === expected.length && nodeCrypto().timingSafeEqual(signature, expected)
  }
  let publicKey = publicKeys.get(key.public_key)
  if (!publicKey) publicKeys.set(key.public_key, (publicKey = nodeCrypto().createPublicKey(key.public_key)))
  try {
    return nodeCrypto().verify(null, Buffer.from(base), publicKey, signature)
  } catch {
    return false // a signature of the wrong length
  }
}
