import { afterEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

let sb: TestSandbox
afterEach(() => sb.close())

/** Every same-origin file the page names: its script and stylesheet, and the modules they import, transitively. */
async function referencedAssets(html: string): Promise<string[]> {
  const found = new Set([...html.matchAll(/(?:src|href)="(\/_sandbox\/ui\/[^"]+)"/g)].map((match) => match[1]!))
  // A Set iterates over what is added while it iterates: imported modules get read in turn.
  for (const path of found) {
    if (!path.endsWith('.js')) continue
    const { text } = await sb.api.get(path).expect(200)
    for (const match of text.matchAll(/from '\.\/([\w-]+\.js)'/g)) found.add(`/_sandbox/ui/${match[1]}`)
  }
  return [...found]
}

describe('the dashboard at /_sandbox/ui', () => {
  it('serves its page as HTML with a strict content security policy, with or without the final slash', async () => {
    sb = await startTestSandbox()
    for (const path of ['/_sandbox/ui', '/_sandbox/ui/']) {
      const res = await sb.api.get(path).expect(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.text).toMatch(/^<!doctype html>/)
      expect(res.text).toContain('<script type="module" src="/_sandbox/ui/app.js"></script>')
      expect(res.headers['content-security-policy']).toContain("default-src 'none'")
      expect(res.headers['content-security-policy']).toContain("script-src 'self'")
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it('serves every script, stylesheet and icon the page uses, each with its content type', async () => {
    sb = await startTestSandbox()
    const { text } = await sb.api.get('/_sandbox/ui').expect(200)
    const assets = await referencedAssets(text)
    const scripts = ['app.js', 'api.js', 'dom.js', 'event-types.js', 'events-feed.js', 'format.js', 'lists.js', 'pager.js', 'reads.js', 'views.js', 'views-money.js', 'views-sandbox.js', 'views-setup.js', 'views-settlements.js', 'views-events.js', 'views-requests.js']
    expect(assets.sort()).toEqual([...scripts, 'style.css', 'favicon.svg'].map((file) => `/_sandbox/ui/${file}`).sort())
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' }
    for (const path of assets) {
      const res = await sb.api.get(path).expect(200)
      expect(res.headers['content-type'], path).toBe(types[path.split('.').pop()!])
      expect(Number(res.headers['content-length']), path).toBeGreaterThan(0)
    }
  })

  it('never builds markup from strings in its scripts (data goes into text nodes)', async () => {
    sb = await startTestSandbox()
    const scripts = (await referencedAssets((await sb.api.get('/_sandbox/ui').expect(200)).text)).filter((path) => path.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(5)
    for (const file of scripts) {
      const { text } = await sb.api.get(file).expect(200)
      expect(text, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/)
    }
  })

  it('needs no control token for its files, while the data behind it does', async () => {
    sb = await startTestSandbox({ controlToken: 'dashboard-secret' })
    expect((await sb.api.get('/_sandbox/ui').expect(200)).text).toContain('id="token-form"')
    await sb.api.get('/_sandbox/ui/app.js').expect(200)
    const data = await sb.api.get('/_sandbox/accounts').expect(401)
    expect(data.body.error.code).toBe('control_token_invalid')
  })

  it('answers HEAD like GET, without a body', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.head('/_sandbox/ui/style.css').expect(200)
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(res.text ?? '').toBe('')
  })

  it.each([
    ['an unknown file', '/_sandbox/ui/missing.js'],
    ['a path that climbs out of the folder', '/_sandbox/ui/..%2Fpackage.json'],
    ['a nested path', '/_sandbox/ui/assets/app.js'],
    ['a name of an object property', '/_sandbox/ui/constructor'],
  ])('answers 404 route_not_found for %s', async (_case, path) => {
    sb = await startTestSandbox()
    const res = await sb.api.get(path).expect(404)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body.error.code).toBe('route_not_found')
  })

  it('answers 405 with Allow for a method other than GET on its files', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/_sandbox/ui').send({}).expect(405)
    expect(res.body.error.code).toBe('method_not_allowed')
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it('is not part of the OpenAPI document, which describes the API only', async () => {
    sb = await startTestSandbox()
    const { body } = await sb.api.get('/v1/openapi.json').set(sb.auth()).expect(200)
    expect(Object.keys(body.paths).filter((path) => path.startsWith('/_sandbox/ui'))).toEqual([])
  })
})
