import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { fieldLines, type SignedMessage } from '../../access/signatures/message.js'
import { createNonceMemory } from '../../access/signatures/nonces.js'
import { verifySignedRequest } from '../../access/signatures/verify.js'
import type { KeyRecord, SigningKeyRecord } from '../../model/records.js'

/**
 * Request signing on `/v1` (CONTRACT.md section 17): which keys must sign, and the check itself,
 * run after authentication and before the rate limit.
 */
/** The key id every key signs with under `--signing-secret`. */
export const CONFIGURED_KEY_ID = 'sandbox'

export interface SignatureChecks {
  /** The key a request with this API key must be signed with, if any. */
  requiredFor(key: KeyRecord): SigningKeyRecord | undefined
  /** Throws the error to answer with when the request is not signed as `signing` requires. */
  verify(req: IncomingMessage, body: Uint8Array, key: KeyRecord, signing: SigningKeyRecord): void
}

export function createSignatureChecks(options: {
  /** `--signing-secret`: every key without signing material of its own signs with it. */
  signingSecret: string | undefined
  /** `--signature-max-age`, seconds. */
  maxAgeSeconds: number
  /** Real time, ms since the epoch: signatures are dated on the client's clock, not the sandbox's. */
  realTime: () => number
}): SignatureChecks {
  const configured: SigningKeyRecord | undefined = options.signingSecret === undefined ? undefined : { alg: 'hmac-sha256', key_id: CONFIGURED_KEY_ID, secret: options.signingSecret }
  const check = {
    maxAgeSeconds: options.maxAgeSeconds,
    nowSeconds: () => Math.floor(options.realTime() / 1000),
    nonces: createNonceMemory(options.maxAgeSeconds),
  }
  return {
    requiredFor: (key) => key.signing ?? configured,
    verify(req, body, key, signing) {
      verifySignedRequest(signedMessage(req, body), signing, key.key, check)
    },
  }
}

function signedMessage(req: IncomingMessage, body: Uint8Array): SignedMessage {
  return {
    method: req.method ?? 'GET',
    scheme: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
    host: req.headers.host ?? '',
    // express rewrites req.url inside routers; originalUrl is the target as the client sent it.
    target: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/',
    fields: fieldLines(req.rawHeaders),
    body,
  }
}
