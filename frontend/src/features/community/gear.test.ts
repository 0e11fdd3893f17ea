import { sampleResult } from './testFixtures'
import { checkGear, GEAR_NAME_LENGTH, GEAR_TOO_MANY, GEAR_URL, isAllowedGearUrl, monitorCount, newRow, suggestGear, type GearRow } from './gear'

const result = sampleResult()

const row = (name: string, url = '', kept = true): GearRow => ({ ...newRow('monitor'), name, url, kept })

describe('gear offered from the analysis', () => {
  it('names the monitors with their count, then keyboard, mouse, chair, lighting and PC', () => {
    const rows = suggestGear({
      inputType: 'text',
      inputData: 'A tower PC under the desk, a mechanical keyboard and a wireless mouse.',
      result: result as never,
    })
    expect(rows.map((r) => [r.name, r.category])).toEqual([
      ['Monitor 1', 'monitor'],
      ['Monitor 2', 'monitor'],
      ['Keyboard', 'keyboard'],
      ['Mouse', 'mouse'],
      ['Chair', 'chair'],
      ['Lighting', 'lighting'],
      ['PC', 'pc'],
    ])
    // Offered, never kept for the owner: nothing is published they did not keep.
    expect(rows.every((r) => r.suggested && !r.kept)).toBe(true)
  })

  it('offers nothing a category the photo could not judge would name', () => {
    const unseen = result.categoryRatings.map((r) => ({ ...r, score: null, comment: 'No chair in view' }))
    const rows = suggestGear({ inputType: 'image', inputData: '/media/a.jpg', result: { ...result, summary: 'A desk.', categoryRatings: unseen, cableInventory: { type: 'none', cables: [], totalCount: 0 } } as never })
    expect(rows).toEqual([])
  })

  it('reads a keyboard or a mouse from its cable', () => {
    const cables = { type: 'cables_found' as const, totalCount: 2, cables: [
      { cableType: 'keyboard' as const, location: 'desk', isAesthetic: true, description: 'coiled' },
      { cableType: 'mouse' as const, location: 'desk', isAesthetic: true, description: 'paracord' },
    ] }
    const rows = suggestGear({ inputType: 'image', inputData: '', result: { ...result, summary: 'Clean.', categoryRatings: [], cableInventory: cables } as never })
    expect(rows.map((r) => r.category)).toEqual(['keyboard', 'mouse'])
  })

  it('counts monitors in words and figures', () => {
    expect(monitorCount('Two monitors at the same height')).toBe(2)
    expect(monitorCount('a triple-monitor sim rig')).toBe(3)
    expect(monitorCount('3 curved screens')).toBe(3)
    expect(monitorCount('one ultrawide display')).toBe(1)
    expect(monitorCount('a clean desk')).toBeNull()
  })
})

describe('the gear rules, as the server checks them', () => {
  it('sends only kept rows, trimmed, without empty links', () => {
    expect(checkGear([row('  LG 27GP850 ', 'https://www.amazon.com/dp/B0X'), row('Keyboard', '', false), row('Mat')])).toEqual({
      items: [{ name: 'LG 27GP850', category: 'monitor', url: 'https://www.amazon.com/dp/B0X' }, { name: 'Mat', category: 'monitor' }],
    })
  })

  it('refuses a nameless or over-long name, a bad link and more than 20 kept rows', () => {
    expect(checkGear([row('ok'), row('   ')])).toEqual({ error: GEAR_NAME_LENGTH, index: 1 })
    expect(checkGear([row('x'.repeat(81))])).toEqual({ error: GEAR_NAME_LENGTH, index: 0 })
    expect(checkGear([row('é'.repeat(80))])).toHaveProperty('items')
    expect(checkGear([row('Arm', 'javascript:alert(1)')])).toEqual({ error: GEAR_URL, index: 0 })
    expect(checkGear(Array.from({ length: 21 }, (_, i) => row(`Thing ${i}`)))).toEqual({ error: GEAR_TOO_MANY, index: -1 })
    expect(checkGear(Array.from({ length: 21 }, (_, i) => row(`Thing ${i}`, '', i < 20)))).toHaveProperty('items')
  })

  it('takes public http(s) links only', () => {
    for (const ok of ['https://www.amazon.com/dp/B0X', 'http://shop.example.com/a?b=1', 'https://8.8.8.8/x']) expect(isAllowedGearUrl(ok)).toBe(true)
    for (const bad of ['javascript:alert(1)', 'ftp://x.example.com', 'data:text/html,hi', 'http://localhost/', 'http://127.0.0.1/', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://169.254.169.254/', 'http://[::1]/', 'https://exa mple.com', 'shop.example.com']) {
      expect(isAllowedGearUrl(bad)).toBe(false)
    }
  })
})
