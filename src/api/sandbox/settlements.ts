import { defineRoute } from '../../http/route.js'
import { presentSettlement } from '../../ledger/present-settlement.js'
import { currentStep, DEFAULT_STEP_FAILURE } from '../../ledger/settlements.js'
import { SettlementIdParams } from '../../schemas/path-params.js'
import { FailSettlementSchema, SettlementSchema } from '../../schemas/settlement.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** Control calls that move a settlement (CONTRACT.md sections 16 and 19); on a final one, 409. */
export const settlementControlRoutes = [
  defineRoute({
    method: 'post', path: '/_sandbox/settlements/{id}/advance', operationId: 'sandboxAdvanceSettlement', summary: 'Finish the current step of a settlement', tag, auth,
    request: { params: SettlementIdParams },
    status: 200, response: SettlementSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params }, ctx) => {
      const { account, settlement } = ctx.deps.control.findSettlement(params.id)
      return presentSettlement(ctx.deps.control.settlementSteps.advance(account, settlement))
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/settlements/{id}/fail', operationId: 'sandboxFailSettlement', summary: 'Fail the current step of a settlement', tag, auth,
    request: { params: SettlementIdParams, body: FailSettlementSchema },
    status: 200, response: SettlementSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params, body }, ctx) => {
      const { account, settlement } = ctx.deps.control.findSettlement(params.id)
      const step = settlement.steps[currentStep(settlement)]
      // Without a code, the step's own: conversion_failed, bridge_failed or transfer_failed.
      const code = body.failure_code ?? DEFAULT_STEP_FAILURE[step?.type ?? 'transfer']
      return presentSettlement(ctx.deps.services.settlements.failStep(account, settlement, code, body.failure_message))
    },
  }),
]
