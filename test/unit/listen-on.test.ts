import { createServer, type Server } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ipFamily, listenOn } from '../../src/http/server-guards.js'

/** Listening through `_listen2` for an IP host (src/http/server-guards.ts, issue 33 round 9): what `server.listen` gives. */
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

function listening(port: number, host: string): Promise<{ server: Server; address?: AddressInfo; error?: NodeJS.ErrnoException }> {
  const server = createServer((_req, res) => res.end('ok'))
  servers.push(server)
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ server, error }))
    server.once('listening', () => resolve({ server, address: server.address() as AddressInfo }))
    listenOn(server, port, host)
  })
}

describe('listenOn', () => {
  it('binds an IPv4 address on a free port, and answers there', async () => {
    const { address } = await listening(0, '127.0.0.1')
    expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4' })
    expect(address!.port).toBeGreaterThan(0)
    const res = await fetch(`http://127.0.0.1:${address!.port}/`)
    expect(await res.text()).toBe('ok')
  })

  it('binds a host name through server.listen, as before', async () => {
    const { address } = await listening(0, 'localhost')
    expect(address!.port).toBeGreaterThan(0)
  })

  it('reports a port in use as server.listen does: an error event with EADDRINUSE, the server not listening', async () => {
    const { address } = await listening(0, '127.0.0.1')
    const taken = await listening(address!.port, '127.0.0.1')
    expect(taken.error?.code).toBe('EADDRINUSE')
    expect(taken.error?.message).toBe(`listen EADDRINUSE: address already in use 127.0.0.1:${address!.port}`)
    expect(taken.server.listening).toBe(false)
  })

  it('binds the wildcard address 0.0.0.0', async () => {
    const { address } = await listening(0, '0.0.0.0')
    expect(address).toMatchObject({ address: '0.0.0.0', family: 'IPv4' })
  })
})

describe('ipFamily', () => {
  it("answers node's isIP for addresses, near misses and names", () => {
    const hosts = [
      '127.0.0.1', '0.0.0.0', '255.255.255.255', '10.0.0.1', '1.2.3.4', '192.168.100.200', '249.250.199.9',
      '256.0.0.1', '1.2.3.256', '01.2.3.4', '1.2.3.04', '00.0.0.0', '1.2.3', '1.2.3.4.5', '1.2.3.4.', '.1.2.3.4', '1..2.3',
      '1.2.3.1000', '1.2.3.-4', '1.2.3.4 ', ' 1.2.3.4', '1.2.3.a', '0x7f.0.0.1', '127.1', '', '.', 'localhost', 'example.com',
      '::', '::1', 'fe80::1', '2001:db8::8a2e:370:7334', '::ffff:127.0.0.1', 'fe80::1%eth0', ':::', '1:2', 'a:b:c',
      '１.2.3.4', '1.2.3.٤',
    ]
    for (const host of hosts) expect([host, ipFamily(host)]).toEqual([host, isIP(host)])
  })

  it("answers node's isIP for 20,000 seeded dotted strings, addresses and near misses", () => {
    let state = 20261130
    // The high half of a 32-bit LCG: its low bits repeat too soon to draw from.
    const draw = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16) % n
    // A part: mostly a number to 299 (so some above 255), else one with a leading zero, an empty one or four digits.
    const part = () => (draw(9) < 6 ? String(draw(300)) : [`0${draw(30)}`, '', String(1000 + draw(9000))][draw(3)]!)
    let quads = 0
    for (let n = 0; n < 20_000; n++) {
      const host = Array.from({ length: [3, 4, 4, 4, 5][draw(5)]! }, part).join('.')
      if (isIP(host) === 4) quads++
      expect([host, ipFamily(host)]).toEqual([host, isIP(host)])
    }
    // The draw must hold addresses, not only refusals.
    expect(quads).toBeGreaterThan(500)
  })
})
