import { serializeInnerList, type InnerList } from 'structured-headers'
import { componentIdentifier, componentValue } from './components.js'
import type { SignedMessage } from './message.js'
import { SignatureFormatError } from './signature-error.js'

/**
 * The signature base of RFC 9421 section 2.5: one line per covered component, `"<identifier>":
 * <value>`, then `"@signature-params": <the inner list with its parameters>`, joined by LF with no
 * trailing newline.
 */
export function buildSignatureBase(signatureParams: InnerList, message: SignedMessage): string {
  const [components] = signatureParams
  const lines: string[] = []
  const seen = new Set<string>()
  for (const component of components) {
    const identifier = componentIdentifier(component)
    if (seen.has(identifier)) throw new SignatureFormatError(`the component ${identifier} is covered twice`)
    seen.add(identifier)
    const value = componentValue(component, message)
    if (/[\r\n]/.test(value)) throw new SignatureFormatError(`the value of ${identifier} contains a line break`)
    lines.push(`${identifier}: ${value}`)
  }
  lines.push(`"@signature-params": ${serializeInnerList(signatureParams)}`)
  return lines.join('\n')
}
