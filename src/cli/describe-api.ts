import { loadConfig } from '../config.js'
import { silentLogger } from '../logger.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/document.js'
import { createSandbox } from '../sandbox.js'
import { VERSION } from '../version.js'

/**
 * What `wallet-sandbox openapi` prints: the document GET /v1/openapi.json serves. The route list is
 * wired by createSandbox, so an in-memory sandbox (never listening) is built to read it.
 */
export async function describeApi(): Promise<OpenApiDocument> {
  const sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', quiet: true } }), { logger: silentLogger })
  try {
    return buildOpenApiDocument(await sandbox.loadRoutes(), { version: VERSION })
  } finally {
    await sandbox.close()
  }
}
