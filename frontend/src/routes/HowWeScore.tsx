import { Link } from 'react-router-dom'
import { usePageTitle } from '@/lib/usePageTitle'

/** The six categories and their share of the SetupIQ Score, in the order the results list them. */
const WEIGHTS = [
  { category: 'Monitor Setup', weight: '20%' },
  { category: 'Desk Cleanliness', weight: '20%' },
  { category: 'Aesthetic Vibe', weight: '20%' },
  { category: 'Cable Management', weight: '15%' },
  { category: 'RGB/Lighting', weight: '15%' },
  { category: 'Chair & Comfort', weight: '10%' },
] as const

/** /how-we-score: how a photo becomes six scores and a SetupIQ Score, in plain words. */
export default function HowWeScore() {
  usePageTitle('How We Score')
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>How We Score</h1>
        <p className="legal-meta">What the analyzer looks at, how sure it is, and what it can&apos;t see.</p>
      </header>

      <section aria-labelledby="score-total">
        <h2 id="score-total">The SetupIQ Score</h2>
        <p data-testid="score-weights">
          The SetupIQ Score is the weighted mean of six categories: Monitor Setup, Desk Cleanliness and Aesthetic Vibe
          20% each, Cable Management and RGB/Lighting 15% each, Chair &amp; Comfort 10%.
        </p>
        <dl className="legal-list">
          {WEIGHTS.map(({ category, weight }) => (
            <div key={category}>
              <dt>{category}</dt>
              <dd>{weight}</dd>
            </div>
          ))}
        </dl>
        <p>
          Each category is scored from 1 to 10 and comes with a comment saying what was seen, so you can tell why it
          got that score.
        </p>
        <p data-testid="score-unseen">
          A category your photo or description doesn&apos;t show at all, such as a chair that is out of frame, shows -/10
          with the reason and is left out: the SetupIQ Score is then the weighted mean of the categories that were rated.
        </p>
      </section>

      <section aria-labelledby="score-reading">
        <h2 id="score-reading">How a Photo Is Read</h2>
        <p>
          Everything runs on our own servers, offline, and the same photo always gets the same result.
        </p>
        <p>Two models look at it:</p>
        <ul>
          <li>
            <strong>An object detector</strong> (trained on the COCO data set) finds the things it knows: monitors,
            laptops, keyboards, mice, chairs, couches, plants, cups, bottles, books, phones and more.
          </li>
          <li>
            <strong>A scene classifier</strong> (EfficientNet-Lite0, trained on ImageNet) sees the whole scene at once
            rather than single objects.
          </li>
        </ul>
        <p>
          Image statistics then measure what no detector sees: coloured light, loose cables (thin, dark, curving lines),
          clutter on the desk surface (how busy it is with edges), the colour palette and how symmetrical the layout is.
        </p>
      </section>

      <section aria-labelledby="score-judgement">
        <h2 id="score-judgement">Evidence and Learned Judgement</h2>
        <p>
          Each category first gets an <strong>evidence score</strong> from what was found, by the rules below. That score
          is then mixed with a <strong>learned judgement</strong>: a small linear model that reads the scene
          classifier&apos;s view of the whole photo. It was fitted to a careful person&apos;s 1–10 ratings of real setup
          photos and checked on photos it had never seen: it orders 93% of clearly different pairs of those held-out
          photos the way the person did.
        </p>
        <p>
          When the evidence and the learned judgement disagree by 2 points or more, the category&apos;s comment says so
          and its confidence drops.
        </p>
      </section>

      <section aria-labelledby="score-categories">
        <h2 id="score-categories">What Raises and Lowers Each Category</h2>

        <h3>Cable Management</h3>
        <p>
          A setup with no loose cable in sight scores high. Each loose cable costs points: one under the desk costs the
          most, one behind the monitor the least. A dark room hides cables, so a dark photo with none in sight isn&apos;t
          rewarded as much as a bright one.
        </p>

        <h3>RGB/Lighting</h3>
        <p>
          This is about coloured light outside the screens. Saturated, bright light in several colours raises it, and a
          dark room lit by its LEDs scores highest. Plain white light scores low. A colourful wallpaper on a screen is not
          lighting and doesn&apos;t count.
        </p>

        <h3>Desk Cleanliness</h3>
        <p>
          The score starts from a clear surface. Each bottle, cup, book, phone or similar object on the desk costs a
          little, and papers and small objects covering the surface cost up to 4 points.
        </p>

        <h3>Monitor Setup</h3>
        <p>
          One monitor scores 6 and an ultrawide 7.5. Two monitors side by side at the same height score higher, and three
          or more higher still; monitors at different heights score lower than a matched pair. Only a laptop scores 4.
          The main screen centred over the keyboard adds half a point.
        </p>

        <h3>Chair &amp; Comfort</h3>
        <p>
          A desk chair pulled up in front of the screens scores best. A couch instead of a desk chair scores lower. With
          no chair in the photo there is nothing to judge: the category shows -/10 and doesn&apos;t count towards the
          SetupIQ Score.
        </p>

        <h3>Aesthetic Vibe</h3>
        <p>
          Plants and greenery, a coherent colour palette, accent lighting and a symmetrical layout raise it. A busy mix of
          colours and clutter lower it.
        </p>
      </section>

      <section aria-labelledby="score-confidence">
        <h2 id="score-confidence">Confidence</h2>
        <p>Each category on your results may say how firmly its score rests on the photo:</p>
        <dl className="legal-list">
          <div>
            <dt>High</dt>
            <dd>
              The evidence and the learned judgement agree. This is the usual case, so the results don&apos;t mention it.
            </dd>
          </div>
          <div>
            <dt>Medium</dt>
            <dd>They disagree by about 2 points; the comment says which way. Take the score as a rough guide.</dd>
          </div>
          <div>
            <dt>Low</dt>
            <dd>
              Little to go on in the photo, or the two disagree by 3 points or more.
            </dd>
          </div>
        </dl>
        <p>Results saved before confidence existed don&apos;t show it, and neither do results rated by an AI vision model.</p>
      </section>

      <section aria-labelledby="score-refused">
        <h2 id="score-refused">What Gets Refused</h2>
        <p>Some pictures are not rated at all, and nothing is charged for them:</p>
        <ul>
          <li>
            A photo that isn&apos;t of a setup. We need a screen at a desk: a monitor or laptop on a working surface. A TV
            in a living room, an armchair corner, a close-up of a keyboard or a PC case on its own are not rated.
          </li>
          <li>A screenshot or an illustration rather than a photo.</li>
          <li>Anything not safe for work.</li>
        </ul>
      </section>

      <section aria-labelledby="score-tips">
        <h2 id="score-tips">Tips for a Good Photo</h2>
        <ul>
          <li>Get the whole desk in the frame, with the chair if you can.</li>
          <li>Turn the lights on, including your RGB.</li>
          <li>Take it from where you sit, or a little behind.</li>
        </ul>
      </section>

      <section aria-labelledby="score-limits">
        <h2 id="score-limits">Known Limits</h2>
        <ul>
          <li>It can&apos;t see white cables against a light wall, or cables in a very dark room.</li>
          <li>
            It knows chairs only as &quot;chair&quot;. The learned judgement helps tell an ergonomic chair from a dining
            chair, but it has seen few examples.
          </li>
          <li>
            A 3D render that fills the whole picture can pass as a photo. One set on a plain coloured background is
            refused, and so, wrongly, is a photo taken straight down onto a plain coloured desk mat with nothing reaching
            its edges.
          </li>
        </ul>
      </section>

      <div className="row cta-row">
        <Link to="/" className="btn btn-primary">Rate My Setup</Link>
        <Link to="/tips" className="btn btn-secondary">Setup Tips</Link>
      </div>
    </article>
  )
}
