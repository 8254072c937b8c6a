import type { Request, Response } from 'express'
import * as z from 'zod'
import { ApiError } from '../errors.js'
import { assertIpAllowed, assertScope, bearerKey, resolveKey } from '../access/keys.js'
import { interpretBody, readBody, EMPTY_BODY, type RawBody } from './middleware/body.js'
import type { ConnectionFault } from './middleware/faults.js'
import type { AppDeps, RequestContext } from './context.js'
import type { IdempotencyRecord, KeyRecord, SigningKeyRecord } from '../model/records.js'
import type { HttpServices } from './services.js'
import { setAnswerHeader } from './answer-headers.js'
import { renderCursorList, renderError, renderList, renderResource, send, type Encoded, type Rendered } from './respond.js'
import type { AnyRoute, CursorResult, ListResult } from './route.js'
import { parseOrThrow } from '../schemas/validate.js'
import { lazily } from '../lazily.js'

/**
 * A route without a query schema takes no query: an empty one needs no parse, and this schema, made
 * on first use (building schemas as the module loads was part of every cold start, issue 33),
 * refuses any other.
 */
const noQuery = lazily(() => z.strictObject({}))

function isEmpty(object: object): boolean {
  for (const _ in object) return false
  return true
}

/** What a route needs on every request, worked out once (pipeline.ts). */
export interface PreparedRoute {
  route: AnyRoute
  deps: AppDeps
  http: HttpServices
  envelope: 'wrapped' | 'bare'
  bodyLimit: number
  /** The route's schemas of its path parameters and its query; none: it has no parameters, or takes no query. */
  params: z.ZodType | undefined
  query: z.ZodType | undefined
  body: z.ZodType | undefined
  /** The body schema's fast path (src/schemas/validate.ts `withFastPath`): its answer, or undefined for the schema to parse. */
  fastBody: ((input: unknown) => unknown) | undefined
  /** Idempotency-Key is honoured: a POST of the `/v1` API. */
  idempotent: boolean
}

/**
 * One request on its way through the pipeline, and the handler's context. The steps run one after
 * the other without a promise between them unless one has to wait: for the body, an injected
 * latency, or a handler that answers later (a long poll). Each step catches what it throws, so an
 * error at any point is answered in the one error shape.
 */
export class Exchange implements RequestContext {
  readonly deps: AppDeps
  requestId: string
  account: RequestContext['account'] = undefined as unknown as RequestContext['account']
  key: KeyRecord = undefined as unknown as KeyRecord
  private body: RawBody = EMPTY_BODY
  private idempotent: IdempotencyRecord | undefined = undefined
  private validated = false
  /** commit_then_drop: the request runs to the end, then the answer is thrown away with the connection. */
  private dropAnswer = false

  constructor(
    private readonly prepared: PreparedRoute,
    private readonly req: Request,
    private readonly res: Response,
  ) {
    this.deps = prepared.deps
    this.requestId = res.locals.requestId
  }

  get ip(): string {
    return this.req.socket.remoteAddress ?? ''
  }

  closed(): Promise<void> {
    return new Promise<void>((resolve) => this.res.once('close', resolve))
  }

  /** From here on the request is the account's, and so is its id: its answers are the same bytes whatever other accounts do. */
  belongsTo(accountId: string): void {
    this.requestId = this.res.locals.requestId = `req_${this.prepared.http.accountRequestIds(accountId).base62(24)}`
    setAnswerHeader(this.res, 'X-Request-Id', this.requestId)
  }

  run(): void {
    const { route, http, bodyLimit } = this.prepared
    const { req } = this
    try {
      let signing: SigningKeyRecord | undefined
      if (route.auth === 'control') http.checkControlToken(req.headers.authorization)
      else if (route.auth !== 'none') {
        const { account, key } = resolveKey(bearerKey(req.headers.authorization), { store: this.deps.store, accounts: this.deps.accounts, mode: this.deps.config.auth })
        this.account = account
        this.key = key
        this.res.locals.accountId = account.account.id
        this.belongsTo(account.account.id)
        // The peer's address only for a key that names allowed addresses: node's getter was 0.4 % of a
        // POST's main-thread samples (perf, issue 33, round 9), for a check every other key passes.
        if (key.allowed_ips.length !== 0) assertIpAllowed(key, this.ip)
        assertScope(key, route.scope)
        signing = http.signatures?.requiredFor(key)
        // Content-Digest is checked against the bytes before the rate limit, so they are read first.
        if (signing) return readBody(req, bodyLimit, (error, bytes) => (error === undefined ? this.signed(bytes!, signing!) : this.fail(error)))
        this.limit()
      }
      if (this.prepared.body) return readBody(req, bodyLimit, (error, bytes) => (error === undefined ? this.withBody(bytes) : this.fail(error)))
      this.withBody(undefined)
    } catch (error) {
      this.fail(error)
    }
  }

  /** Rate-limit headers go out on every answer from here on, errors included. */
  private limit(): void {
    const { limiter } = this.prepared.http
    if (!limiter) return
    const headers = limiter.take(this.key.key)
    for (const name in headers) setAnswerHeader(this.res, name, headers[name]!)
  }

  private signed(bytes: Buffer, signing: SigningKeyRecord): void {
    try {
      this.prepared.http.signatures!.verify(this.req, bytes, this.key, signing)
      this.limit()
      this.withBody(bytes)
    } catch (error) {
      this.fail(error)
    }
  }

  private withBody(bytes: Buffer | undefined): void {
    const { req, res } = this
    const { http, deps } = this.prepared
    try {
      res.locals.requestBody = bytes
      const body = (this.body = bytes ? interpretBody(bytes, req.headers['content-type'], deps.config.lenient) : EMPTY_BODY)
      const idempotencyKey = req.headers['idempotency-key']
      if (this.prepared.idempotent && idempotencyKey !== undefined && this.account) {
        const outcome = http.idempotency.begin(this.account.account.id, 'POST', req.path, String(idempotencyKey), body, this.requestId)
        if (outcome.kind === 'replay') {
          const { record } = outcome
          setAnswerHeader(res, 'X-Request-Id', record.request_id)
          // For the request log and journal: the id the answer carries, and that it was a replay.
          res.locals.replayOf = record.request_id
          res.locals.responseBody = record.body
          send(res, { status: record.status, text: record.body }, { 'Idempotent-Replayed': 'true' })
          return
        }
        this.idempotent = outcome.record
      }
      const fault = http.faults?.before(req, res, this)
      if (fault instanceof Promise) fault.then((decided) => this.afterFaults(decided), (error: unknown) => this.fail(error))
      else this.afterFaults(fault)
    } catch (error) {
      this.fail(error)
    }
  }

  private afterFaults(fault: ConnectionFault | undefined): void {
    const { http, route } = this.prepared
    try {
      if (fault === 'drop' || fault === 'timeout') {
        // Nothing ran: a retry with the same Idempotency-Key must run anew.
        if (this.idempotent) http.idempotency.abandon(this.account.account.id, this.idempotent)
        http.faults!.cut(this.res, fault)
        return
      }
      this.dropAnswer = fault === 'commit_then_drop'
      const { body } = this
      if (body.kind === 'invalid_json') throw new ApiError('invalid_json', body.message)
      const rawBody = body.kind === 'empty' ? {} : body.value
      const { params, query } = this.prepared
      const input = {
        // Without path parameters or a query schema, zod would answer `{}` for an empty query and
        // for any parameters (a plain object drops what it does not name): no parse for those.
        params: params === undefined ? {} : parseOrThrow(params, this.req.params, 'path'),
        query: query === undefined && isEmpty(this.req.query) ? {} : parseOrThrow(query ?? noQuery(), this.req.query, 'query'),
        body: this.prepared.body ? this.parseBody(route.prepareBody ? route.prepareBody(rawBody, this) : rawBody) : undefined,
      }
      this.validated = true
      const result = route.handler(input, this)
      if (result instanceof Promise) result.then((value) => this.succeed(value, input.query), (error: unknown) => this.fail(error))
      else this.succeed(result, input.query)
    } catch (error) {
      this.fail(error)
    }
  }

  private parseBody(raw: unknown): unknown {
    const { body, fastBody } = this.prepared
    return fastBody?.(raw) ?? parseOrThrow(body!, raw, 'body')
  }

  private succeed(result: unknown, query: unknown): void {
    const { route, envelope, http } = this.prepared
    try {
      if (route.raw) return this.answer({ status: route.status, bytes: result as Buffer })
      const rendered: Rendered = route.list === 'cursor'
        ? renderCursorList(result as CursorResult<unknown>, this.requestId)
        : route.list
          ? renderList(result as ListResult<unknown>, query as { limit: number; offset: number }, this.requestId)
          : renderResource(route.status, result, this.requestId, envelope)
      if (this.idempotent) http.idempotency.complete(this.account.account.id, this.idempotent, rendered.status, rendered.text)
      this.answer(rendered)
    } catch (error) {
      this.fail(error)
    }
  }

  private fail(error: unknown): void {
    const { http } = this.prepared
    const rendered = renderError(error, this.requestId, http.logError)
    if (this.idempotent) {
      if (this.validated) http.idempotency.complete(this.account.account.id, this.idempotent, rendered.status, rendered.text)
      else http.idempotency.abandon(this.account.account.id, this.idempotent)
      this.idempotent = undefined
    }
    this.answer(rendered)
  }

  private answer(rendered: Rendered | Encoded): void {
    // For the request journal (`tail --verbose`): what the client was answered.
    this.res.locals.responseBody = 'bytes' in rendered ? rendered.bytes : rendered.text
    if (this.dropAnswer) this.prepared.http.faults!.cut(this.res, 'commit_then_drop')
    else send(this.res, rendered)
  }
}
