import { initials } from './initials'

describe('initials', () => {
  it.each([
    ['Pixel Pete', 'a@b.co', 'PP'],
    ['Pixel_Pete', 'a@b.co', 'PP'],
    ['pixel_pete_3000', 'a@b.co', 'P3'],
    ['gamer', 'a@b.co', 'GA'],
    ['x', 'a@b.co', 'X'],
    ['  ', 'zed@example.com', 'Z'],
    [null, 'zed@example.com', 'Z'],
    [undefined, undefined, null],
    ['', '', null],
    ['élan vital', null, 'ÉV'],
  ])('%s / %s -> %s', (username, email, expected) => {
    expect(initials(username, email)).toBe(expected)
  })
})
