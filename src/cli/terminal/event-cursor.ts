import { SandboxControlError } from '../../client/control-client.js'
import { provision } from './key-account.js'
import { TerminalError, type Connection } from './target.js'

/**
 * The id of the key's newest event (that `types` selects): a terminal command reads on after it, so
 * that it reports what happens from now on; and the account's `resets` then, by which a later read
 * knows that the id may name another event. Reading there also checks the key and the filter, so
 * that a mistake is said before anything else happens. The route answers oldest first, a hundred at
 * a time: a long log (10,000 events at most) takes a few pages.
 */
export async function newestEvent(connection: Connection, types?: string): Promise<{ after: string | undefined; resets: number }> {
  let after: string | undefined
  for (;;) {
    let page
    try {
      page = await connection.control.events({ api_key: connection.target.apiKey, type: types, after })
    } catch (error) {
      if (!isKeyWithoutAccount(error)) throw error instanceof SandboxControlError ? new TerminalError(`${error.param === 'type' ? '--events: ' : ''}${apiMessage(error)}`) : error
      await provision(connection)
      continue
    }
    if (page.data.length === 0) return { after, resets: page.resets }
    after = page.data[page.data.length - 1]!.id
    if (!page.has_more) return { after, resets: page.resets }
  }
}

/** The events route's 404 for a key that no request has used yet. */
export const isKeyWithoutAccount = (error: unknown): boolean => error instanceof SandboxControlError && error.code === 'resource_missing' && error.param === 'api_key'

/** The API's own words, without the client's `GET /_sandbox/… failed with 400 code:` prefix. */
export const apiMessage = (error: SandboxControlError): string => error.message.replace(/^[A-Z]+ \S+ failed with \d+( \w+)?: /, '')
