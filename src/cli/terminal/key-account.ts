import { TerminalError, type Connection } from './target.js'

/**
 * The account of the command's key, as the control API knows it. A key that no request has used
 * yet has none: its first `/v1` request gives it one (open auth), so it is made here; a key the
 * sandbox refuses (strict auth) is said so.
 */
export async function accountIdOf(connection: Connection): Promise<string> {
  const { apiKey } = connection.target
  const find = async () => (await connection.control.request<Array<{ id: string }>>('GET', `/accounts?api_key=${encodeURIComponent(apiKey)}`))[0]?.id
  const found = await find()
  if (found !== undefined) return found
  await provision(connection)
  const made = await find()
  if (made === undefined) throw new TerminalError(`the key ${apiKey} has no account, and a first request did not give it one`)
  return made
}

/** A key's first `/v1` request gives it its account (open auth); a key the sandbox refuses is said so. */
export async function provision(connection: Connection): Promise<void> {
  try {
    await connection.api('GET', '/wallets?limit=1')
  } catch (error) {
    throw new TerminalError(`the key ${connection.target.apiKey} has no account: ${(error as Error).message}`)
  }
}
