// Requests from the dashboard, all to the control API under /_sandbox (with the control token once
// the sandbox has asked for it). Never /v1: a read with an account's key would count toward that
// key's rate limit and meet injected faults (CONTRACT.md section 7).

const TOKEN_KEY = 'wallet-sandbox.control-token'

/** An error answer of the sandbox, with its code, its message (written for people) and the parameter it names. */
export class RequestError extends Error {
  constructor(status, code, message, param) {
    super(message)
    this.status = status
    this.code = code
    this.param = param
  }
}

/** `code: message`, as an error is shown to people. */
export const describeError = (error) => (error.code ? `${error.code}: ${error.message}` : String(error.message ?? error))

/** The control API wants a token: none was given yet, or the one given was refused. */
export class TokenRequired extends Error {
  constructor(refused) {
    super(refused ? 'The sandbox refused that control token.' : 'The control API needs the token given to --control-token.')
    this.refused = refused
  }
}

/** Kept in sessionStorage: asked once, forgotten when the tab closes. */
export const controlToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
}

/** `signal` aborts the request (a long poll the page no longer needs): the AbortError is thrown as it is. */
async function request(path, { method = 'GET', body, bearer, signal } = {}) {
  const headers = { Accept: 'application/json' }
  if (bearer) headers.Authorization = `Bearer ${bearer}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  let response
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new RequestError(0, 'no_answer', 'The sandbox did not answer: is it still running?')
  }
  const text = await response.text()
  let json
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!response.ok) {
    const error = json?.error
    throw new RequestError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status} from ${method} ${path}`, error?.param)
  }
  return json
}

/** A control call; answers the whole envelope (`data`, and `pagination` or `has_more` for a list). */
export async function controlEnvelope(path, options = {}) {
  const token = controlToken.get()
  try {
    return await request(`/_sandbox${path}`, { ...options, bearer: token ?? undefined })
  } catch (error) {
    if (error instanceof RequestError && error.code === 'control_token_invalid') {
      controlToken.clear()
      throw new TokenRequired(token !== null)
    }
    throw error
  }
}

/** A control call; answers the `data` of the envelope. */
export const control = async (path, options = {}) => (await controlEnvelope(path, options)).data

/** One page of a paginated control list: `{ items, total }`. */
export async function controlPage(path, { limit, offset }) {
  const { data, pagination } = await controlEnvelope(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`)
  return { items: data, total: pagination.total }
}

/** One page of a control list that answers every entry at once (outcome rules, faults): sliced here. */
export async function controlSlice(path, { limit, offset }) {
  const all = await control(path)
  return { items: all.slice(offset, offset + limit), total: all.length }
}
