import type { JsonSchema } from './components.js'

/** The shapes of the OpenAPI document the sandbox builds. */

export type OpenApiDocument = {
  openapi: '3.1.0'
  info: Record<string, unknown>
  servers: Array<{ url: string; description?: string }>
  security: Array<Record<string, string[]>>
  tags: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
  /** The event payloads the sandbox POSTs to webhook endpoints, one entry per event type. */
  webhooks: Record<string, { post: Record<string, unknown> }>
  components: Record<string, Record<string, unknown>>
}

export type Operation = Record<string, unknown> & { operationId: string; responses: Record<string, ResponseObject | { $ref: string }> }
export type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }>; 'x-error-codes'?: string[] }
