import { createHash } from 'node:crypto'
import { createSigner, httpbis } from 'http-message-signatures'

/**
 * Sends a request signed by an independent RFC 9421 implementation (the http-message-signatures
 * package), so the sandbox's verifier is checked against someone else's reading of the RFC.
 */
export interface SignedRequest {
  method?: string
  /** Path and query, such as `/v1/wallets?limit=2`. */
  path: string
  apiKey: string
  body?: unknown
  key: { alg: 'hmac-sha256' | 'ed25519'; keyId: string; /** HMAC: the secret's bytes; Ed25519: the private key PEM. */ material: Buffer | string }
  /** Covered components; default `@method`, `@target-uri`, `authorization` and, with a body, `content-digest`. */
  components?: string[]
  /** Signature parameters; `created` defaults to now (seconds). */
  created?: number
  nonce?: string
  /** Applied after signing: tamper with the body, drop a header… */
  afterSigning?: (request: { headers: Record<string, string>; body: string | undefined }) => void
}

export const contentDigest = (body: string | Uint8Array, algorithm: 'sha-256' | 'sha-512' = 'sha-256') =>
  `${algorithm}=:${createHash(algorithm.replace('-', '')).update(body).digest('base64')}:`

export async function signedFetch(baseUrl: string, request: SignedRequest): Promise<{ status: number; body: any; headers: Headers }> {
  const method = request.method ?? (request.body === undefined ? 'GET' : 'POST')
  const url = `${baseUrl}${request.path}`
  const body = request.body === undefined ? undefined : JSON.stringify(request.body)
  const headers: Record<string, string> = { authorization: `Bearer ${request.apiKey}` }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    headers['content-digest'] = contentDigest(body)
  }
  const components = request.components ?? ['@method', '@target-uri', 'authorization', ...(body === undefined ? [] : ['content-digest'])]
  const signed = await httpbis.signMessage(
    {
      key: createSigner(request.key.material as never, request.key.alg, request.key.keyId),
      fields: components,
      params: ['created', 'keyid', 'alg', ...(request.nonce === undefined ? [] : ['nonce'])],
      paramValues: { created: new Date((request.created ?? Math.floor(Date.now() / 1000)) * 1000), ...(request.nonce === undefined ? {} : { nonce: request.nonce }) },
    },
    { method, url, headers },
  )
  const sent = { headers: signed.headers as Record<string, string>, body }
  request.afterSigning?.(sent)
  const res = await fetch(url, { method, headers: sent.headers, body: sent.body })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers }
}
