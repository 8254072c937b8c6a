import type { Request, RequestHandler, Response } from 'express'
import * as z from 'zod'
import { ApiError } from '../errors.js'
import { assertIpAllowed, assertScope, bearerKey, resolveKey } from '../access/keys.js'
import { interpretBody, readRawBody, type RawBody } from './middleware/body.js'
import type { AppDeps, RequestContext } from './context.js'
import type { IdempotencyRecord } from '../model/records.js'
import type { HttpServices } from './services.js'
import { renderCursorList, renderError, renderList, renderResource, send, type Encoded, type Rendered } from './respond.js'
import type { AnyRoute, CursorResult, ListResult } from './route.js'
import { parseOrThrow } from '../schemas/validate.js'

const NO_QUERY = z.strictObject({})
const NO_PARAMS = z.object({})

/**
 * Turns a route object into an express handler that runs the checks in the contract's order:
 * authentication → signature → rate limit → idempotency → injected faults → body and parameters → the handler.
 */
export function createRouteHandler(route: AnyRoute, deps: AppDeps, http: HttpServices): RequestHandler {
  const { config } = deps
  const envelope = route.path.startsWith('/_sandbox') ? 'wrapped' : config.envelope

  return async (req: Request, res: Response) => {
    let requestId: string = res.locals.requestId
    /** From here on the request is the account's, and so is its id: its answers are the same bytes whatever other accounts do. */
    const belongsTo = (accountId: string) => {
      requestId = ctx.requestId = res.locals.requestId = `req_${http.accountRequestIds(accountId).base62(24)}`
      res.setHeader('X-Request-Id', requestId)
    }
    const ctx = { deps, requestId, ip: req.socket.remoteAddress ?? '', closed: () => new Promise<void>((resolve) => res.once('close', resolve)), belongsTo } as RequestContext
    let idempotent: IdempotencyRecord | undefined
    let validated = false
    // commit_then_drop: the request runs to the end, then the answer is thrown away with the connection.
    let dropAnswer = false
    const answer = (rendered: Rendered | Encoded) => {
      // For the request journal (`tail --verbose`): what the client was answered.
      res.locals.responseBody = 'bytes' in rendered ? rendered.bytes : rendered.text
      if (dropAnswer) http.faults!.cut(res, 'commit_then_drop')
      else send(res, rendered)
    }
    const bodyLimit = Math.max(route.bodyLimit ?? 0, config.bodyLimit)
    let bytes: Buffer | undefined
    try {
      if (route.auth === 'control') http.checkControlToken(req.headers.authorization)
      else if (route.auth !== 'none') {
        const { account, key } = resolveKey(bearerKey(req.headers.authorization), { store: deps.store, accounts: deps.accounts, mode: config.auth })
        ctx.account = account
        ctx.key = key
        res.locals.accountId = account.account.id
        belongsTo(account.account.id)
        assertIpAllowed(key, ctx.ip)
        assertScope(key, route.scope)
        const signing = http.signatures?.requiredFor(key)
        if (signing) {
          // Content-Digest is checked against the bytes before the rate limit, so they are read first.
          bytes = await readRawBody(req, bodyLimit)
          http.signatures!.verify(req, bytes, key, signing)
        }
        // Headers go out on every answer from here on, errors included.
        if (http.limiter) setHeaders(res, http.limiter.take(key.key))
      }

      if (route.request?.body) bytes ??= await readRawBody(req, bodyLimit)
      res.locals.requestBody = bytes
      const body: RawBody = bytes ? interpretBody(bytes, req.headers['content-type'], config.lenient) : { kind: 'empty' }

      const idempotencyKey = req.headers['idempotency-key']
      if (route.method === 'post' && route.auth !== 'control' && idempotencyKey !== undefined && ctx.account) {
        const outcome = http.idempotency.begin(ctx.account.account.id, 'POST', req.path, String(idempotencyKey), body, requestId)
        if (outcome.kind === 'replay') {
          const { record } = outcome
          res.setHeader('X-Request-Id', record.request_id)
          // For the request log and journal: the id the answer carries, and that it was a replay.
          res.locals.replayOf = record.request_id
          res.locals.responseBody = record.body
          send(res, { status: record.status, text: record.body }, { 'Idempotent-Replayed': 'true' })
          return
        }
        idempotent = outcome.record
      }

      const fault = await http.faults?.before(req, res, ctx)
      if (fault === 'drop' || fault === 'timeout') {
        // Nothing ran: a retry with the same Idempotency-Key must run anew.
        if (idempotent) http.idempotency.abandon(ctx.account.account.id, idempotent)
        http.faults!.cut(res, fault)
        return
      }
      dropAnswer = fault === 'commit_then_drop'

      if (body.kind === 'invalid_json') {
        throw new ApiError('invalid_json', body.message)
      }
      const rawBody = body.kind === 'empty' ? {} : body.value
      const input = {
        params: parseOrThrow(route.request?.params ?? NO_PARAMS, req.params, 'path'),
        query: parseOrThrow(route.request?.query ?? NO_QUERY, req.query, 'query'),
        body: route.request?.body ? parseOrThrow(route.request.body, route.prepareBody ? route.prepareBody(rawBody, ctx) : rawBody, 'body') : undefined,
      }
      validated = true

      const result = await route.handler(input, ctx)
      if (route.raw) return answer({ status: route.status, bytes: result as Buffer })
      const rendered: Rendered = route.list === 'cursor'
        ? renderCursorList(result as CursorResult<unknown>, requestId)
        : route.list
          ? renderList(result as ListResult<unknown>, input.query as { limit: number; offset: number }, requestId)
          : renderResource(route.status, result, requestId, envelope)
      if (idempotent) http.idempotency.complete(ctx.account.account.id, idempotent, rendered.status, rendered.text)
      answer(rendered)
    } catch (error) {
      const rendered = renderError(error, requestId, http.logError)
      if (idempotent) {
        if (validated) http.idempotency.complete(ctx.account.account.id, idempotent, rendered.status, rendered.text)
        else http.idempotency.abandon(ctx.account.account.id, idempotent)
      }
      answer(rendered)
    }
  }
}

function setHeaders(res: Response, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
}
