import type { StepSpec } from '../step.js'

/** Short forms for writing packs: a step is a name, a request and what the step says about it. */

type Extra = Omit<StepSpec, 'name' | 'method' | 'path' | 'body' | 'query'>

export const get = (name: string, path: string, query?: Record<string, string>, extra: Extra = {}): StepSpec => ({ name, method: 'GET', path, ...(query && { query }), ...extra })

export const post = (name: string, path: string, body: unknown, extra: Extra = {}): StepSpec => ({ name, method: 'POST', path, body, ...extra })

export const put = (name: string, path: string, body: unknown, extra: Extra = {}): StepSpec => ({ name, method: 'PUT', path, body, ...extra })

export const del = (name: string, path: string, extra: Extra = {}): StepSpec => ({ name, method: 'DELETE', path, ...extra })

/** A wallet the pack creates, saved under `save`. */
export const createWallet = (save: string, currency: string, network: string, extra: { type?: string; metadata?: Record<string, string>; step?: string } = {}): StepSpec =>
  post(
    extra.step ?? `create ${extra.type === undefined ? 'a wallet' : `${extra.type === 'institutional' || extra.type === 'omnibus' ? 'an' : 'a'} ${extra.type} wallet`} of ${currency} on ${network}`,
    '/v1/wallets',
    { name: `parity ${save}`, currency, network, ...(extra.type && { type: extra.type }), ...(extra.metadata && { metadata: extra.metadata }) },
    { save },
  )
