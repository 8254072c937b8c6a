import type { Pack } from '../step.js'
import { createWallet, get, post } from './builders.js'
import { tradeFor, UNKNOWN } from './values.js'

/**
 * Pairs, prices, quotes and orders. The funded wallet is one leg of a pair (the quote of a buy, the
 * base of a sell) and the pack creates the other; a limit order rests at a price no tick reaches and
 * is cancelled (two of them, so that a page of one has more on both sides), a market order fills at
 * once. The error cases use two empty wallets of the pair.
 */
export const trading: Pack = {
  name: 'trading',
  description: 'pairs, prices, quotes and orders (a resting limit order cancelled, a market order filled), and the error cases',
  steps: ({ source, run }) => {
    const trade = tradeFor(source.currency)
    const quote = trade.pair.split('/')[1]!
    // The wallets of a funded order: the source is the leg it pays from.
    const funded = trade.side === 'buy' ? { base_wallet: '{{tradeOther.data.id}}', quote_wallet: '{{source.id}}' } : { base_wallet: '{{source.id}}', quote_wallet: '{{tradeOther.data.id}}' }
    // Two empty wallets of the pair: the other leg and a spare of the source's leg.
    const empty = trade.side === 'buy' ? { base_wallet: '{{tradeOther.data.id}}', quote_wallet: '{{tradeSpare.data.id}}' } : { base_wallet: '{{tradeSpare.data.id}}', quote_wallet: '{{tradeOther.data.id}}' }
    const order = (overrides: Record<string, unknown>) => ({ pair: trade.pair, side: trade.side, type: 'limit', amount: trade.amount, limit_price: trade.farLimit, ...empty, ...overrides })
    return [
      get('list the trading pairs', '/v1/pairs', undefined, { lengths: true }),
      get('read two prices', '/v1/prices', { pairs: 'ETH/USD,SOL/USD' }, { lengths: true }),
      post('quote a conversion by its source amount', '/v1/quotes', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '10.00' }, { save: 'quote' }),
      post('quote a conversion to fiat by its destination amount', '/v1/quotes', { source_currency: 'USDC', destination_currency: 'EUR', destination_amount: '10.00' }),
      get('read the quote', '/v1/quotes/{{quote.data.id}}'),
      post('refuse a quote with both amounts', '/v1/quotes', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '10.00', destination_amount: '0.01' }),
      post('refuse a quote of an unknown currency', '/v1/quotes', { source_currency: 'USDC', destination_currency: 'DOGE', source_amount: '10.00' }),
      createWallet('tradeOther', trade.other.currency, trade.other.network, { metadata: { external_user_id: `parity-${run}-trade` } }),
      createWallet('tradeSpare', source.currency, source.network),
      post('place a limit order no tick reaches', '/v1/orders', { ...order({}), ...funded, metadata: { parity: run } }, { needsFunds: true, save: 'limitOrder' }),
      post('place another', '/v1/orders', { ...order({ time_in_force: 'gtc' }), ...funded }, { needsFunds: true, save: 'limitOrder2' }),
      get('read the order', '/v1/orders/{{limitOrder.data.id}}'),
      post('cancel it', '/v1/orders/{{limitOrder.data.id}}/cancel', undefined),
      post('cancel the other', '/v1/orders/{{limitOrder2.data.id}}/cancel', undefined),
      post('refuse to cancel it again', '/v1/orders/{{limitOrder.data.id}}/cancel', undefined),
      post('place a market order', '/v1/orders', { pair: trade.pair, side: trade.side, type: 'market', amount: trade.amount, ...funded }, { needsFunds: true, save: 'marketOrder' }),
      get('read the filled order', '/v1/orders/{{marketOrder.data.id}}'),
      get('list orders, a page of one', '/v1/orders', { limit: '1' }, { needsFunds: true }),
      get('list orders by status, pair and side, a page of one', '/v1/orders', { status: 'cancelled', pair: trade.pair, side: trade.side, limit: '1' }, { needsFunds: true }),
      post('refuse a limit price on a market order', '/v1/orders', order({ type: 'market' })),
      post('refuse an amount below the pair\'s minimum', '/v1/orders', order({ amount: trade.belowMin })),
      post('refuse an unknown pair', '/v1/orders', order({ pair: `DOGE/${quote}` })),
      post('refuse a wallet of the wrong currency', '/v1/orders', order({ base_wallet: empty.quote_wallet, quote_wallet: empty.base_wallet })),
      post(`refuse a ${trade.side} larger than the balance`, '/v1/orders', order({ limit_price: trade.side === 'buy' ? '1000' : trade.farLimit })),
      get('read an unknown order', `/v1/orders/${UNKNOWN.order}`),
      get('refuse an unknown order status filter', '/v1/orders', { status: 'exploded' }),
    ]
  },
}
