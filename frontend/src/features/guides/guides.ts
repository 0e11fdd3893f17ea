import { Armchair, Cpu, Palette, PiggyBank, type LucideIcon } from 'lucide-react'

/** One part of a guide: a heading, a few paragraphs and a checklist. */
export interface GuideSection {
  heading: string
  paragraphs: string[]
  checklist?: string[]
}

export interface Guide {
  slug: string
  category: string
  icon: LucideIcon
  title: string
  /** The card's line on /tips and the page's lead. */
  text: string
  /** The SetupIQ categories the guide helps with (what the analyzer rates). */
  rates: string[]
  sections: GuideSection[]
}

/**
 * The four guides of /tips, each at /tips/{slug}: short, and written from what SetupIQ
 * rates (docs/scoring.md), so that following one moves a score.
 */
export const GUIDES: Guide[] = [
  {
    slug: 'budget-setup',
    category: 'Budgeting',
    icon: PiggyBank,
    title: 'Building a Killer Setup on a Budget',
    text: 'Where to spend and where to save: the upgrades that change the most for the least money.',
    rates: ['Desk Cleanliness', 'Cable Management', 'Monitor Setup'],
    sections: [
      {
        heading: 'Start with what costs nothing',
        paragraphs: [
          'The cheapest points are on the desk already. Clear everything that is not part of the setup: cups, bottles, wrappers, paper and boxes. A clean desk photographs as a better setup than an expensive one buried in clutter, and Desk Cleanliness is a fifth of the SetupIQ Score.',
          'Then gather the cables you can see into one bundle with the twist ties from your packaging. It is not cable management yet, but it is far from spaghetti.',
        ],
        checklist: ['Nothing on the desk that you do not use every day', 'One bundle of cables instead of many loose ones', 'Empty boxes and bags off the floor behind the desk'],
      },
      {
        heading: 'The first 30 dollars',
        paragraphs: [
          'A pack of velcro straps and a few adhesive cable clips hide most of what a camera sees. An under-desk tray or a cable sleeve finishes the job. These are the suggestions SetupIQ makes first when Cable Management is the weakest category, because nothing else changes a photo as much for the money.',
        ],
      },
      {
        heading: 'The next upgrade: raise the screen',
        paragraphs: [
          'A monitor stand or a single arm lifts the screen to eye level, frees desk space and makes the whole desk look deliberate. If you have two screens, line up their top edges. Spend on the screen itself only when it is too small or too slow for what you play.',
        ],
      },
      {
        heading: 'Where not to spend yet',
        paragraphs: [
          'Lighting kits and decor come last: they flatter a tidy desk and make a messy one look worse. Rate your setup again after each step; the score tells you which category holds you back now.',
        ],
      },
    ],
  },
  {
    slug: 'cpu-gpu-match',
    category: 'Performance',
    icon: Cpu,
    title: 'CPU & GPU: Finding the Perfect Match',
    text: 'Avoid bottlenecks by pairing a processor and graphics card that suit your games and monitor.',
    rates: ['Monitor Setup'],
    sections: [
      {
        heading: 'Match the pair to the monitor',
        paragraphs: [
          'The monitor decides what balance you need. At 1080p and high refresh rates (144 Hz and up), the processor has to prepare many frames a second, so a fast CPU matters. At 1440p and 4K, the graphics card does most of the work and the CPU waits for it.',
          'A simple rule: buy the graphics card for the resolution and the processor for the refresh rate.',
        ],
      },
      {
        heading: 'Spot the bottleneck',
        paragraphs: [
          'Watch the usage of both while you play (the overlay of your GPU driver shows it). A graphics card near 100 % with a processor that has headroom is as it should be. A processor core pinned at 100 % while the graphics card idles at 60 % means the CPU holds you back: lower the settings that load it (view distance, crowds, physics) or plan a CPU upgrade.',
        ],
        checklist: ['GPU usage high, CPU headroom: balanced', 'CPU pinned, GPU waiting: CPU-bound', 'Both low with stutter: check memory, drivers and background apps'],
      },
      {
        heading: 'What SetupIQ can and cannot see',
        paragraphs: [
          'A photo does not show what is inside the case, so the SetupIQ Score never rates your components. It does rate the monitor setup: the size of the screens, how they are arranged and at what height. A monitor that matches your hardware, at eye level and at arm\'s length, is the part of performance a photo shows.',
        ],
      },
    ],
  },
  {
    slug: 'desk-ergonomics',
    category: 'Ergonomics',
    icon: Armchair,
    title: 'Optimize Your Desk for Comfort & Health',
    text: 'Chair height, monitor distance and posture tips that keep long sessions pain-free.',
    rates: ['Chair & Comfort', 'Monitor Setup'],
    sections: [
      {
        heading: 'Chair first',
        paragraphs: [
          'Sit with your feet flat on the floor and your knees at about a right angle; raise or lower the seat until they are. Your lower back should touch the backrest: a chair with lumbar support, or a small cushion, keeps it there over long sessions.',
          'Armrests at desk height let your shoulders drop. If they push your shoulders up, lower them or take them off.',
        ],
      },
      {
        heading: 'Screen at eye level, at arm\'s length',
        paragraphs: [
          'The top edge of the screen belongs at or just below eye level, about an arm\'s length away. A stand or an arm gets it there; a stack of books does too. With two screens, put the one you use most straight ahead.',
        ],
        checklist: ['Top of the screen at eye level', 'An arm\'s length from your eyes', 'Main screen straight ahead, the second angled beside it'],
      },
      {
        heading: 'Keyboard, mouse and breaks',
        paragraphs: [
          'Keep the keyboard and mouse close enough that your elbows stay by your sides, wrists straight. A desk mat gives both one surface. Every half hour, look at something far away for twenty seconds and stand up once an hour.',
        ],
      },
      {
        heading: 'How SetupIQ rates comfort',
        paragraphs: [
          'Chair & Comfort is judged from the chair in the photo. Include it when you take the photo: without a chair in view the category gets no score rather than a guess.',
        ],
      },
    ],
  },
  {
    slug: 'rgb-and-cables',
    category: 'Aesthetics',
    icon: Palette,
    title: 'Mastering RGB & Cable Management',
    text: 'Hide the cable spaghetti and tune your lighting into one coherent, clean look.',
    rates: ['Cable Management', 'RGB/Lighting', 'Aesthetic Vibe'],
    sections: [
      {
        heading: 'Cables: route, bundle, hide',
        paragraphs: [
          'Run every cable the shortest way down from the desk, never across it. Bundle the ones that go the same way with velcro straps, then lay the bundle in an under-desk tray or a raceway along the desk leg. The power strip goes in the tray too, off the floor.',
          'Behind the monitor, a cable sleeve turns four loose cables into one clean line. The fewer cables a camera can see, the higher Cable Management scores.',
        ],
        checklist: ['No cable across the desk surface', 'Power strip mounted under the desk', 'One sleeve or channel per direction'],
      },
      {
        heading: 'Lighting: one idea, not every colour',
        paragraphs: [
          'Light the wall behind the screens rather than your face: an LED strip on the back of the monitor or desk gives depth and is easy on the eyes in a dark room. Pick one or two colours that go with the desk and sync every device to them. Rainbow waves on every surface read as noise, not style.',
          'Keep a neutral light on for the photo. A room lit only by RGB comes out dark, and what the camera cannot see cannot be rated.',
        ],
      },
      {
        heading: 'The vibe ties it together',
        paragraphs: [
          'Aesthetic Vibe rewards a setup that looks planned: a colour scheme repeated across desk mat, lighting and accessories, a plant or a shelf that gives the desk a background, and nothing out of place. Tidy cables and coherent light are most of it.',
        ],
      },
    ],
  },
]

export function findGuide(slug: string | undefined): Guide | undefined {
  return GUIDES.find((guide) => guide.slug === slug)
}
