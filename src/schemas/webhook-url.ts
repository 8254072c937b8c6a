import * as z from 'zod'
import { whenPresent } from './messages.js'

/**
 * A webhook endpoint's `url` (and `--webhook-url`). The WHATWG URL parser quietly drops tabs and
 * line breaks and trims control characters, so `new URL()` alone accepts a value that is not what
 * the sandbox stores and shows back; every check here runs on the string as sent.
 */

const URL_MESSAGE = 'url must be an absolute http:// or https:// URL such as "https://example.com/webhooks"'

/** C0 controls, DEL and the C1 controls: never part of a URL, and CR/LF would split a header line. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

/** Why `value` is not a webhook URL, or undefined when it is one. */
export function webhookUrlProblem(value: string): string | undefined {
  if (CONTROL_CHARACTER.test(value)) return `${URL_MESSAGE}; it contains a control character (CR, LF, tab or similar), which a URL never does`
  if (value !== value.trim()) return `${URL_MESSAGE}, without leading or trailing spaces`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return URL_MESSAGE
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return URL_MESSAGE
  // Shown back by GET /v1/webhooks and in every delivery log entry: a password there would leak.
  if (url.username !== '' || url.password !== '') return 'url must not contain credentials (user:password@); a receiver can check the webhook-signature header instead'
  return undefined
}

const buildWebhookUrlSchema = () =>
  z
    .string({ error: whenPresent(URL_MESSAGE) })
    .max(2048, { error: 'url is at most 2048 characters' })
    .superRefine((value, ctx) => {
      const problem = webhookUrlProblem(value)
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
    })
    .meta({ example: 'https://example.com/webhooks', description: 'An absolute http:// or https:// URL: no control characters, spaces around it or credentials.' })
let schema: ReturnType<typeof buildWebhookUrlSchema> | undefined

/**
 * The schema, one object for the webhook routes and `--webhook-url` alike, built on first use: the
 * config module, which every start loads, needs it only when `--webhook-url` is given (issue 33).
 */
export const webhookUrlSchema = () => (schema ??= buildWebhookUrlSchema())
