import { describe, expect, it } from 'vitest'
import { SandboxControlError } from '../../src/client/control-request.js'
import type { TriggerSteps } from '../../src/cli/terminal/trigger/recipe.js'
import { SETTLEMENT_RECIPES } from '../../src/cli/terminal/trigger/settlement-recipes.js'

// Under --settle instant the sandbox finishes a settlement on its own, which can happen between the
// trigger's look at it (still pending) and its control call (then refused: it has no step to advance).
function stepsWhere(statusAfterRefusal: string) {
  let refused = false
  const refusal = new SandboxControlError('Settlement stl_1 is completed; it has no step to advance.', 409, 'invalid_state_transition', 'invalid_request_error', undefined, 'req_1')
  const steps = {
    connection: {
      api: async () => ({ id: 'stl_1', object: 'settlement', status: refused ? statusAfterRefusal : 'pending', refund: null }),
      control: {
        advanceSettlement: async () => {
          refused = true
          throw refusal
        },
      },
    },
    created: async () => {},
    call: (_line: string, make: () => Promise<unknown>) => make(),
  }
  return steps as unknown as TriggerSteps
}

/** The recipe's drive step: settlement.processing has one, and the test is void without it. */
function driveProcessing(): NonNullable<(typeof SETTLEMENT_RECIPES)['settlement.processing']['drive']> {
  const drive = SETTLEMENT_RECIPES['settlement.processing'].drive
  if (!drive) throw new Error('settlement.processing has no drive step')
  return drive
}

describe('trigger settlement.processing, when the sandbox finishes the settlement first', () => {
  it('takes the refused advance of a settlement that ended meanwhile as done', async () => {
    await expect(driveProcessing()(stepsWhere('completed'), { id: 'stl_1', object: 'settlement', status: 'pending' })).resolves.toBeUndefined()
  })

  it('still fails on a refusal while the settlement has not ended', async () => {
    await expect(driveProcessing()(stepsWhere('pending'), { id: 'stl_1', object: 'settlement', status: 'pending' })).rejects.toThrow('no step to advance')
  })
})
