import * as z from 'zod'
import { VERSION } from '../../version.js'
import { defineRoute, type AnyRoute } from '../../http/route.js'

const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'This OpenAPI 3.1 document.' })

/**
 * `GET /v1/openapi.json`: the document of every route `allRoutes` answers (this one included), built
 * on the first request and kept encoded, as bytes: serializing its 360 KB anew for every request was
 * most of what clients that ask for it again and again cost the server (see docs/reliability.md, slow
 * and hostile clients). The builder and the event schemas only it uses are imported then too, as are
 * the route groups not loaded yet (src/api/route-table.ts): building those schemas at load was a
 * noticeable part of a cold start.
 */
export function openApiRoute(allRoutes: () => Promise<readonly AnyRoute[]>): AnyRoute {
  let document: Promise<Buffer> | undefined
  return defineRoute({
    method: 'get', path: '/v1/openapi.json', operationId: 'getOpenApiDocument', summary: 'This OpenAPI 3.1 document', tag: 'OpenAPI', auth: 'none',
    status: 200, response: OpenApiDocumentSchema, raw: true,
    handler: () =>
      (document ??= Promise.all([allRoutes(), import('../../openapi/document.js')]).then(([routes, { buildOpenApiDocument }]) =>
        Buffer.from(JSON.stringify(buildOpenApiDocument(routes, { version: VERSION }))),
      )),
  })
}
