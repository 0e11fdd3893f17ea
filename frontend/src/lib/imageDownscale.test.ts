import { fitWithin } from './imageDownscale'

describe('fitWithin', () => {
  it.each([
    [1600, 400, 800, 800, 800, 200],
    [400, 1600, 800, 800, 200, 800],
    [640, 480, 800, 800, 640, 480],
    [3840, 2160, 1920, 1080, 1920, 1080],
    [4000, 1000, 1920, 1080, 1920, 480],
  ])('%ix%i within %ix%i -> %ix%i', (w, h, mw, mh, ew, eh) => {
    expect(fitWithin(w, h, mw, mh)).toEqual({ width: ew, height: eh })
  })
})
