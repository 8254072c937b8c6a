import type { z } from 'zod'
import type { ErrorCode } from '../errors.js'
import type { Scope } from '../model/records.js'
import type { RequestContext } from './context.js'

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type Schema = z.ZodType

/**
 * One object per endpoint: the path, who may call it, the zod schemas that validate its input and
 * describe its output, and its handler. Validation, handler types and the OpenAPI document all
 * derive from it.
 */
export interface RouteDef<P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema> {
  method: Method
  /** OpenAPI style: `/v1/wallets/{id}`. */
  path: string
  operationId: string
  summary: string
  tag: string
  /** `key`: a `/v1` API key (default); `none`: public; `control`: the `/_sandbox` API. */
  auth?: 'key' | 'none' | 'control'
  scope?: Scope
  request?: { params?: P; query?: Q; body?: B }
  /** Adapts a raw JSON body before validation (the `--lenient` variants). */
  prepareBody?: (body: unknown, ctx: RequestContext) => unknown
  /** Success status and the schema of what the handler returns (for lists, of one item). */
  status: 200 | 201
  response: Schema
  /**
   * `true`: a page of a list, `{data, pagination, …listExtra}`; the handler returns a ListResult.
   * `'cursor'`: a list read from a cursor (`after`), `{data, has_more, …listExtra}`; the handler returns a CursorResult.
   */
  list?: boolean | 'cursor'
  /** Fields a list answer carries beside `data` and `pagination` (a zod object); the handler returns them as `extra`. */
  listExtra?: z.ZodObject
  /**
   * The handler returns the whole body as JSON already encoded (a Buffer), sent as it is, without the
   * envelope: the OpenAPI document, encoded once. For a GET: such an answer is never kept for an
   * idempotent replay.
   */
  raw?: boolean
  /** The largest body this route takes, when it needs more than `--body-limit` (a restore takes a whole snapshot). */
  bodyLimit?: number
  /** Errors the handler itself can answer, for the OpenAPI document. */
  errors?: ErrorCode[]
  handler: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }, ctx: RequestContext) => unknown
}

export type AnyRoute = RouteDef<Schema, Schema, Schema>

export const defineRoute = <P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema>(route: RouteDef<P, Q, B>) =>
  route as unknown as AnyRoute

/** What a list handler returns; the envelope adds `limit`, `offset` and `has_more`. */
export interface ListResult<T> {
  items: T[]
  total: number
  /** The route's `listExtra` fields. */
  extra?: Record<string, unknown>
}

/** What a cursor list's handler returns. */
export interface CursorResult<T> {
  items: T[]
  hasMore: boolean
  extra?: Record<string, unknown>
}

/** `/v1/wallets/{id}` → `/v1/wallets/:id` for express. */
export const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** A page of ledger records rendered to their wire shape. */
export const presentPage = <T, R>(page: ListResult<T>, present: (item: T) => R): ListResult<R> => ({ items: page.items.map(present), total: page.total })
