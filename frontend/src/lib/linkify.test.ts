import { describe, expect, it } from 'vitest'
import { linkify } from './linkify'

describe('linkify', () => {
  it('keeps text as text and cuts out web links without their trailing punctuation', () => {
    expect(linkify('Arm: https://ergotron.example/lx. Cheap!')).toEqual([
      { kind: 'text', text: 'Arm: ' },
      { kind: 'link', href: 'https://ergotron.example/lx' },
      { kind: 'text', text: '. Cheap!' },
    ])
  })

  it('never makes a link of markup or of other schemes', () => {
    expect(linkify('<a href="javascript:alert(1)">x</a> ftp://files.example')).toEqual([
      { kind: 'text', text: '<a href="javascript:alert(1)">x</a> ftp://files.example' },
    ])
  })

  it('handles text that is only a link, and none', () => {
    expect(linkify('http://a.example')).toEqual([{ kind: 'link', href: 'http://a.example' }])
    expect(linkify('')).toEqual([])
  })
})
