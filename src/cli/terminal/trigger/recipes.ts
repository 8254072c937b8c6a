import type { EventType } from '../../../model/events.js'
import { ORDER_RECIPES } from './order-recipes.js'
import { PAYMENT_RECIPES } from './payment-recipes.js'
import type { Recipe } from './recipe.js'
import { SETTLEMENT_RECIPES } from './settlement-recipes.js'

/** One recipe per event type the sandbox emits: typed by EventType, so a new type does not compile until it can be triggered. */
export const RECIPES: Record<EventType, Recipe> = { ...PAYMENT_RECIPES, ...ORDER_RECIPES, ...SETTLEMENT_RECIPES }

/** The resource an id names, by its prefix. */
export const RESOURCE_OF_PREFIX: Record<string, Recipe['resource']> = { pay: 'payment', po: 'payout', ord: 'order', stl: 'settlement' }
/** Where the API answers each resource by id. */
export const PATH_OF: Record<Recipe['resource'], string> = { payment: '/payments', payout: '/payouts', order: '/orders', settlement: '/settlements' }
