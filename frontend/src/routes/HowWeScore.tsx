import { Link } from 'react-router-dom'
import { useSite } from '@/api/resources'
import { usePageTitle } from '@/lib/usePageTitle'

/** The six categories and their share of a described setup's SetupIQ Score, in the order the results list them. */
const WEIGHTS = [
  { category: 'Monitor Setup', weight: '20%' },
  { category: 'Desk Cleanliness', weight: '20%' },
  { category: 'Aesthetic Vibe', weight: '20%' },
  { category: 'Cable Management', weight: '15%' },
  { category: 'RGB/Lighting', weight: '15%' },
  { category: 'Chair & Comfort', weight: '10%' },
] as const

/** What each category looks at, and what a high and a low score look like. */
const CATEGORIES = [
  {
    name: 'Cable Management',
    looks: 'The cables a camera can see: under the desk, behind the screens, across the surface.',
    high: 'Nothing loose in sight: cables run in a tray, a sleeve or down a desk leg.',
    low: 'A tangle under the desk, chargers snaking across it, a power strip on the floor.',
  },
  {
    name: 'RGB/Lighting',
    looks: 'The light in the room apart from the screens: its colour, how much there is and how well it goes together.',
    high: 'Coloured light behind the desk or screens that sets a mood, in a scheme that fits.',
    low: 'A bare desk under a plain ceiling light, or a room so dark that nothing shows.',
  },
  {
    name: 'Desk Cleanliness',
    looks: 'What lies on the desk that is not part of the setup.',
    high: 'A clear surface: keyboard, mouse, screens and little else.',
    low: 'Cups, bottles, wrappers, papers and boxes covering the desk.',
  },
  {
    name: 'Monitor Setup',
    looks: 'How many screens, how big, and how they are arranged.',
    high: 'Two or three matched monitors at the same height, or a large ultrawide, centred where you sit.',
    low: 'A laptop alone, or screens at odd heights and angles.',
  },
  {
    name: 'Chair & Comfort',
    looks: 'The chair you sit in at the desk.',
    high: 'A proper desk or gaming chair pulled up to the screens.',
    low: 'A couch, a stool or a dining chair. No chair in the photo: not rated at all.',
  },
  {
    name: 'Aesthetic Vibe',
    looks: 'The setup as a whole: whether it looks planned and has a style of its own.',
    high: 'A colour scheme carried through, plants or a shelf behind, nothing out of place.',
    low: 'A mix of colours and clutter with no idea holding it together.',
  },
] as const

/** /how-we-score: what SetupIQ looks at, for the people whose setups it rates. */
export default function HowWeScore() {
  usePageTitle('How We Score')
  const analyzer = useSite().data?.analyzer
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>How We Score</h1>
        <p className="legal-meta">What SetupIQ looks at in your setup, and how to get a better score.</p>
      </header>

      <section aria-labelledby="score-total">
        <h2 id="score-total">The SetupIQ Score</h2>
        <p>
          Your setup gets a SetupIQ Score from 1 to 10 and six category scores, in half points such as 6.5/10, that explain it. Each category comes with
          a comment saying what was seen, so you can tell why it got its score, and the weakest ones come with
          suggestions to fix them.
        </p>
        <p>
          We taught the score from people: about 250 real photos, from a desk buried in trash to a polished
          battlestation, each scored by a person. On photos it had never seen, setups people scored 1 to 3 got 2.5 from
          us on average, and the ones they scored 8 or 9 got 8.2.
        </p>
        <p data-testid="score-unseen">
          A category your photo or description doesn&apos;t show at all, such as a chair that is out of frame, shows -/10
          with the reason and doesn&apos;t count.
        </p>
      </section>

      <section aria-labelledby="score-categories">
        <h2 id="score-categories">What Each Category Looks At</h2>
        {CATEGORIES.map((category) => (
          <div key={category.name} className="score-category">
            <h3>{category.name}</h3>
            <p>{category.looks}</p>
            <dl className="legal-list">
              <div><dt>Scores high</dt><dd>{category.high}</dd></div>
              <div><dt>Scores low</dt><dd>{category.low}</dd></div>
            </dl>
          </div>
        ))}
      </section>

      <section aria-labelledby="score-tips">
        <h2 id="score-tips">Tips for a Good Photo</h2>
        <ul>
          <li>Get the whole desk in the frame, with the chair if you can.</li>
          <li>Turn the lights on, including your RGB: what the camera can&apos;t see can&apos;t be rated.</li>
          <li>Take it from where you sit, or a little behind.</li>
        </ul>
        <p>
          Want to move a score? Our <Link to="/tips">guides</Link> go through cables, lighting, comfort and budget upgrades.
        </p>
      </section>

      <section aria-labelledby="score-refused">
        <h2 id="score-refused">What Gets Refused</h2>
        <p>Some pictures are not rated at all, and nothing is charged for them:</p>
        <ul>
          <li>
            A photo that isn&apos;t of a setup. We rate a desk: its screens, cables, light and chair. A TV in a living
            room, a meeting room, a close-up of a keyboard or a PC case on its own are not rated.
          </li>
          <li>A screenshot, a render or a drawing rather than a photo.</li>
          <li>Anything not safe for work.</li>
        </ul>
      </section>

      <section aria-labelledby="score-confidence">
        <h2 id="score-confidence">Confidence</h2>
        <p>Each category on your results may say how firmly its score rests on the photo:</p>
        <dl className="legal-list">
          <div>
            <dt>High</dt>
            <dd>What was found in the photo and the judgement agree. This is the usual case, so the results don&apos;t mention it.</dd>
          </div>
          <div>
            <dt>Medium</dt>
            <dd>They disagree by about 2 points; the comment says which way. Take the score as a rough guide.</dd>
          </div>
          <div>
            <dt>Low</dt>
            <dd>Little to go on in the photo, or the two disagree by 3 points or more.</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="score-hood">
        <h2 id="score-hood">Under the Hood</h2>
        {analyzer === 'openai' ? (
          <p data-testid="score-analyzer">
            Photos are rated by an AI vision model, which scores the six categories from the photo; the SetupIQ Score is
            their weighted mean.
          </p>
        ) : (
          <p data-testid="score-analyzer">
            Photos are rated on our own servers, and the same photo always gets the same result. An object detector finds
            monitors, keyboards, chairs, cups and the rest; image measurements see coloured light, loose cables and
            clutter; a scene model reads the whole photo and four close-ups of it. The scores come from a judgement
            learned from people&apos;s scores of real setups, and the comments say what was found.
          </p>
        )}
        <p data-testid="score-weights">
          A described setup&apos;s SetupIQ Score is the weighted mean of its categories: Monitor Setup, Desk Cleanliness
          and Aesthetic Vibe 20% each, Cable Management and RGB/Lighting 15% each, Chair &amp; Comfort 10%.
        </p>
        <dl className="legal-list">
          {WEIGHTS.map(({ category, weight }) => (
            <div key={category}>
              <dt>{category}</dt>
              <dd>{weight}</dd>
            </div>
          ))}
        </dl>
        <p>Known limits:</p>
        <ul>
          <li>White cables against a light wall, and cables in a very dark room, are hard to see.</li>
          <li>It tells a desk chair from a couch better than an ergonomic chair from a dining chair.</li>
          <li>A render that fills the whole picture can pass as a photo.</li>
        </ul>
      </section>

      <div className="row cta-row">
        <Link to="/" className="btn btn-primary">Rate My Setup</Link>
        <Link to="/tips" className="btn btn-secondary">Setup Tips</Link>
      </div>
    </article>
  )
}
